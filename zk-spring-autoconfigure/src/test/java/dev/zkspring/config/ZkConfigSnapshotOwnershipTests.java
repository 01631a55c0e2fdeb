package dev.zkspring.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A snapshot is read only from a directory of the running user that nobody else may write, and the
 * file checked is the file read: a group-writable directory, another user's directory and a file
 * swapped in between the check and the read are refused. Changing an owner needs root (CI runs as
 * root); those tests are skipped only where the run has no such privilege.
 */
class ZkConfigSnapshotOwnershipTests {

	@TempDir
	Path parent;

	private Path directory;

	private ConfigSnapshotStore store;

	@BeforeEach
	void setUp() throws IOException {
		this.directory = Files.createDirectory(this.parent.resolve("snapshots"),
				PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
		this.store = new ConfigSnapshotStore(this.directory.resolve("orders-0123.json"));
		this.store.write(List.of(new ZnodePropertySource("/config/orders", 1, Map.of("shop.greeting", "ours"))));
	}

	@AfterEach
	void resetSeam() {
		SnapshotFiles.checked = (file) -> {
		};
	}

	@Test
	void aSnapshotInADirectoryItsGroupMayWriteIsRefused() throws IOException {
		Files.setPosixFilePermissions(this.directory, PosixFilePermissions.fromString("rwxrwx---"));
		assertThatIOException().isThrownBy(this.store::read)
			.withMessageContaining("its directory " + this.directory + " may be written by its group or others")
			.withMessageContaining("rwxrwx---");
	}

	@Test
	void writingIntoADirectoryItsGroupMayWriteIsRefused() throws IOException {
		Files.setPosixFilePermissions(this.directory, PosixFilePermissions.fromString("rwxrwx---"));
		assertThatIOException()
			.isThrownBy(() -> this.store.write(List.of(new ZnodePropertySource("/config/orders", 2, Map.of()))))
			.withMessageContaining("may be written by its group or others");
	}

	@Test
	void aSnapshotInADirectoryOwnedBySomeoneElseIsRefused() throws IOException {
		Files.setOwner(this.directory, nobody());
		assertThatIOException().isThrownBy(this.store::read)
			.withMessageContaining("its directory " + this.directory + " is owned by nobody");
	}

	@Test
	void aFileOfSomeoneElseSwappedInAfterTheCheckIsNotRead() throws IOException {
		Path planted = this.parent.resolve("planted.json");
		Files.writeString(planted, "{\"contexts\":[{\"znode\":\"/config/orders\",\"version\":1,"
				+ "\"properties\":{\"shop.greeting\":\"planted\"}}]}");
		Files.setPosixFilePermissions(planted, PosixFilePermissions.fromString("rw-------"));
		Files.setOwner(planted, nobody());
		SnapshotFiles.checked = (file) -> {
			try {
				Files.move(planted, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
			}
			catch (IOException ex) {
				throw new IllegalStateException(ex);
			}
		};
		assertThatIOException().isThrownBy(this.store::read)
			.withMessageContaining("it was replaced between its check and its read");
	}

	@Test
	void aLinkSwappedInAfterTheCheckIsNotFollowed() throws IOException {
		Path planted = Files.writeString(this.parent.resolve("planted.json"), "{\"contexts\":[]}");
		SnapshotFiles.checked = (file) -> {
			try {
				Files.delete(file);
				Files.createSymbolicLink(file, planted);
			}
			catch (IOException ex) {
				throw new IllegalStateException(ex);
			}
		};
		assertThatIOException().isThrownBy(this.store::read)
			.withMessageContaining("it was replaced between its check and its read");
	}

	@Test
	void theSnapshotItWroteIsStillRead() throws IOException {
		assertThat(this.store.read()).singleElement()
			.satisfies((source) -> assertThat(source.getProperty("shop.greeting")).isEqualTo("ours"));
	}

	private UserPrincipal nobody() throws IOException {
		assumeTrue("root".equals(System.getProperty("user.name")), "changing an owner needs root (CI runs as root)");
		return this.directory.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
	}

}
