package dev.zkspring.config;

import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.EnumSet;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * The checks that make a snapshot file ours: a snapshot decides the configuration an application
 * starts with, so one planted by someone else (a link to another user's file, a file in a directory
 * others may write, a file others may write or read) is refused with the file and the reason, never
 * followed. On file systems without POSIX attributes only links are refused.
 */
final class SnapshotFiles {

	private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

	private static final Set<PosixFilePermission> GROUP_OR_OTHERS = EnumSet.of(PosixFilePermission.GROUP_READ,
			PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE);

	private SnapshotFiles() {
	}

	/**
	 * The content of a snapshot file, if it is ours.
	 * @return the bytes, or {@code null} when there is no file
	 * @throws IOException naming the file and why it is refused
	 */
	static byte @Nullable [] readOurs(Path file) throws IOException {
		if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
			return null;
		}
		if (Files.isSymbolicLink(file)) {
			throw refused(file, "it is a symbolic link (a snapshot is never followed elsewhere)");
		}
		if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
			throw refused(file, "it is not a regular file");
		}
		if (POSIX) {
			checkDirectory(file.toAbsolutePath().getParent(), file);
			PosixFileAttributes attributes = Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
			UserPrincipal us = currentUser(file);
			if (us != null && !us.equals(attributes.owner())) {
				throw refused(file, "it is owned by " + attributes.owner().getName() + ", not by " + us.getName()
						+ ", the user running the application");
			}
			Set<PosixFilePermission> loose = EnumSet.copyOf(attributes.permissions());
			loose.retainAll(GROUP_OR_OTHERS);
			if (!loose.isEmpty()) {
				throw refused(file, "its group or others may read or write it (" + PosixFilePermissions
					.toString(attributes.permissions()) + "; a snapshot is rw------- as the application writes it)");
			}
		}
		try (SeekableByteChannel channel = Files.newByteChannel(file, Set.of(StandardOpenOption.READ,
				LinkOption.NOFOLLOW_LINKS))) {
			return java.nio.channels.Channels.newInputStream(channel).readAllBytes();
		}
		catch (NoSuchFileException ex) {
			return null;
		}
	}

	/**
	 * The directory of a snapshot to write, created owner-only when missing.
	 * @throws IOException when it exists but others may write it
	 */
	static Path directoryToWrite(Path file) throws IOException {
		Path directory = file.toAbsolutePath().getParent();
		if (!Files.isDirectory(directory)) {
			Files.createDirectories(directory, ownerOnly("rwx------"));
		}
		if (POSIX) {
			checkDirectory(directory, file);
		}
		return directory;
	}

	static FileAttribute<?>[] ownerOnly(String permissions) {
		if (!POSIX) {
			return new FileAttribute<?>[0];
		}
		return new FileAttribute<?>[] { PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(permissions)) };
	}

	private static void checkDirectory(Path directory, Path file) throws IOException {
		Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(directory);
		if (permissions.contains(PosixFilePermission.OTHERS_WRITE)) {
			throw refused(file, "its directory " + directory + " may be written by others ("
					+ PosixFilePermissions.toString(permissions) + "); set zk.config.snapshot-dir to a directory only "
					+ "this user may write");
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
