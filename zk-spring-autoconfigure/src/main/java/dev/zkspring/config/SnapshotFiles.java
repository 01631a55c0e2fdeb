package dev.zkspring.config;

import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

/**
 * The checks that make a snapshot file ours: a snapshot decides the configuration an application
 * starts with, so one planted by someone else is refused with the file and the reason, never
 * followed. Its directory and the file must be owned by the user running the application and
 * writable by nobody else (the file readable by nobody else either), and it must not be a link. The
 * directory is opened once and its open handle checked; the file is looked up, checked and opened
 * relative to that handle, and its identity compared before and after opening, so the file checked is
 * the file read: only its owner can replace an entry of such a directory. On file systems without
 * POSIX attributes only links are refused.
 */
final class SnapshotFiles {

	private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

	private static final Set<PosixFilePermission> GROUP_OR_OTHERS = EnumSet.of(PosixFilePermission.GROUP_READ,
			PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE);

	private static final Set<PosixFilePermission> WRITE_BY_OTHERS = EnumSet.of(PosixFilePermission.GROUP_WRITE,
			PosixFilePermission.OTHERS_WRITE);

	/** Test seam: runs after the file is checked and before it is opened. */
	static volatile Consumer<Path> checked = (file) -> {
	};

	private SnapshotFiles() {
	}

	/**
	 * The content of a snapshot file, if it is ours.
	 * @return the bytes, or {@code null} when there is no file
	 * @throws IOException naming the file and why it is refused
	 */
	static byte @Nullable [] readOurs(Path file) throws IOException {
		Path directory = file.toAbsolutePath().getParent();
		Path name = file.getFileName();
		if (!POSIX || !Files.isDirectory(directory)) {
			return readByPath(file);
		}
		try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory)) {
			if (!(stream instanceof SecureDirectoryStream<Path> secure)) {
				return readByPath(file);
			}
			checkDirectory(directory, secure.getFileAttributeView(PosixFileAttributeView.class).readAttributes(), file);
			PosixFileAttributes attributes;
			try {
				attributes = attributes(secure, name);
			}
			catch (NoSuchFileException ex) {
				return null;
			}
			checkFile(file, attributes);
			checked.accept(file);
			try (SeekableByteChannel channel = open(secure, name, file)) {
				if (!Objects.equals(attributes.fileKey(), attributes(secure, name).fileKey())) {
					throw refused(file, "it was replaced between its check and its read");
				}
				return Channels.newInputStream(channel).readAllBytes();
			}
		}
		catch (NoSuchFileException | NotDirectoryException ex) {
			return null;
		}
	}

	private static SeekableByteChannel open(SecureDirectoryStream<Path> directory, Path name, Path file)
			throws IOException {
		try {
			return directory.newByteChannel(name, Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS));
		}
		catch (IOException ex) {
			// gone, or a link now (NOFOLLOW_LINKS): not the file that was checked
			throw refused(file, "it was replaced between its check and its read");
		}
	}

	private static PosixFileAttributes attributes(SecureDirectoryStream<Path> directory, Path name) throws IOException {
		return directory.getFileAttributeView(name, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
			.readAttributes();
	}

	/** Where no directory handle can be held: refuse links, then read without following one. */
	private static byte @Nullable [] readByPath(Path file) throws IOException {
		if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
			return null;
		}
		if (POSIX) {
			checkDirectory(file.toAbsolutePath().getParent(), Files.readAttributes(file.toAbsolutePath().getParent(),
					PosixFileAttributes.class), file);
			checkFile(file, Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS));
		}
		else if (Files.isSymbolicLink(file)) {
			throw refused(file, "it is a symbolic link (a snapshot is never followed elsewhere)");
		}
		try (SeekableByteChannel channel = Files.newByteChannel(file, Set.of(StandardOpenOption.READ,
				LinkOption.NOFOLLOW_LINKS))) {
			return Channels.newInputStream(channel).readAllBytes();
		}
		catch (NoSuchFileException ex) {
			return null;
		}
	}

	/**
	 * The directory of a snapshot to write, created owner-only when missing.
	 * @throws IOException when it exists but is another user's or others may write it
	 */
	static Path directoryToWrite(Path file) throws IOException {
		Path directory = file.toAbsolutePath().getParent();
		if (!Files.isDirectory(directory)) {
			Files.createDirectories(directory, ownerOnly("rwx------"));
		}
		if (POSIX) {
			checkDirectory(directory, Files.readAttributes(directory, PosixFileAttributes.class), file);
		}
		return directory;
	}

	static FileAttribute<?>[] ownerOnly(String permissions) {
		if (!POSIX) {
			return new FileAttribute<?>[0];
		}
		return new FileAttribute<?>[] { PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(permissions)) };
	}

	private static void checkFile(Path file, PosixFileAttributes attributes) throws IOException {
		if (attributes.isSymbolicLink()) {
			throw refused(file, "it is a symbolic link (a snapshot is never followed elsewhere)");
		}
		if (!attributes.isRegularFile()) {
			throw refused(file, "it is not a regular file");
		}
		checkOwner(file, attributes, "it is owned by ");
		Set<PosixFilePermission> loose = EnumSet.copyOf(attributes.permissions());
		loose.retainAll(GROUP_OR_OTHERS);
		if (!loose.isEmpty()) {
			throw refused(file, "its group or others may read or write it (" + PosixFilePermissions
				.toString(attributes.permissions()) + "; a snapshot is rw------- as the application writes it)");
		}
	}

	private static void checkDirectory(Path directory, PosixFileAttributes attributes, Path file) throws IOException {
		checkOwner(file, attributes, "its directory " + directory + " is owned by ");
		Set<PosixFilePermission> loose = EnumSet.copyOf(attributes.permissions());
		loose.retainAll(WRITE_BY_OTHERS);
		if (!loose.isEmpty()) {
			throw refused(file, "its directory " + directory + " may be written by its group or others ("
					+ PosixFilePermissions.toString(attributes.permissions()) + "); set zk.config.snapshot-dir to a "
					+ "directory only this user may write (chmod go-w)");
		}
	}

	private static void checkOwner(Path file, PosixFileAttributes attributes, String what) throws IOException {
		UserPrincipal us = currentUser(file);
		if (us != null && !us.equals(attributes.owner())) {
			throw refused(file, what + attributes.owner().getName() + ", not by " + us.getName()
					+ ", the user running the application");
		}
	}

	private static @Nullable UserPrincipal currentUser(Path file) {
		try {
			return file.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(System.getProperty("user.name"));
		}
		catch (IOException | RuntimeException ex) {
			return null;
		}
	}

	private static IOException refused(Path file, String reason) {
		return new IOException("the snapshot " + file + " is refused: " + reason);
	}

}
