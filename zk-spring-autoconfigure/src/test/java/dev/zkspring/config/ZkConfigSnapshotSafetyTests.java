package dev.zkspring.config;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.zkspring.client.ZkStartupException;
import dev.zkspring.config.ConfigTestSupport.ShopProperties;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;

/**
 * A snapshot decides the configuration of a start without ZooKeeper, so only one that is ours is read:
 * links, files others may read or write, files of another owner and directories others may write
 * are refused with a warning naming the file and the reason. A locator's own message never reaches
 * the startup failure.
 */
@ExtendWith(OutputCaptureExtension.class)
class ZkConfigSnapshotSafetyTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@TempDir
	Path directory;

	private ConfigSnapshotStore store;

	private String unreachable;

	@BeforeEach
	void setUp() throws IOException {
		this.directory = Files.createDirectory(this.directory.resolve("snapshots"),
				PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
		this.unreachable = "127.0.0.1:" + freePort();
		ConfigContexts contexts = new ConfigContexts("/config", "orders", List.of(),
				List.of("/config/application", "/config/orders"));
		this.store = ConfigSnapshotStore.forApplication(this.directory, contexts, ",", this.unreachable, null);
	}

	@Test
	void aSnapshotItWroteIsRead() throws IOException {
		this.store.write(List.of(source("ours")));
		assertThat(this.store.read()).singleElement()
			.satisfies((source) -> assertThat(source.getProperty("shop.greeting")).isEqualTo("ours"));
	}

	@Test
	void aSymbolicLinkIsRefusedAndTheApplicationStartsWithoutIt(CapturedOutput output) throws IOException {
		Path planted = Files.createTempFile("planted", ".json");
		Files.writeString(planted, "{\"contexts\":[{\"znode\":\"/config/orders\",\"version\":1,"
				+ "\"properties\":{\"shop.greeting\":\"planted\"}}]}");
		Files.setPosixFilePermissions(planted, PosixFilePermissions.fromString("rw-------"));
		try {
			Files.createSymbolicLink(this.store.file(), planted);
			assertThatIOException().isThrownBy(this.store::read).withMessageContaining(this.store.file().toString())
				.withMessageContaining("symbolic link");
			runner().withPropertyValues("zk.config.fail-fast=false").run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(ShopProperties.class).getGreeting()).isEqualTo("default");
			});
			assertThat(output).contains("the configuration snapshot cannot be used (the snapshot " + this.store.file()
					+ " is refused: it is a symbolic link");
		}
		finally {
			Files.deleteIfExists(planted);
		}
	}

	@Test
	void aSnapshotOthersMayReadOrWriteIsRefused() throws IOException {
		this.store.write(List.of(source("ours")));
		Files.setPosixFilePermissions(this.store.file(), PosixFilePermissions.fromString("rw-r--r--"));
		assertThatIOException().isThrownBy(this.store::read).withMessageContaining(this.store.file().toString())
			.withMessageContaining("group or others may read or write it");
		Files.setPosixFilePermissions(this.store.file(), PosixFilePermissions.fromString("rw-----w-"));
		assertThatIOException().isThrownBy(this.store::read).withMessageContaining("group or others");
	}

	@Test
	void aSnapshotInADirectoryOthersMayWriteIsRefused() throws IOException {
		this.store.write(List.of(source("ours")));
		Files.setPosixFilePermissions(this.directory, PosixFilePermissions.fromString("rwxrwxrwx"));
		assertThatIOException().isThrownBy(this.store::read)
			.withMessageContaining("its directory " + this.directory.toAbsolutePath() + " may be written by its group or others");
	}

	@Test
	void aTruncatedSnapshotIsReportedAsUnreadableNotAsMissing(CapturedOutput output) throws IOException {
		this.store.write(List.of(source("ours")));
		byte[] whole = Files.readAllBytes(this.store.file());
		Files.write(this.store.file(), java.util.Arrays.copyOf(whole, whole.length / 2));
		String unreadable = "the configuration snapshot cannot be used (the snapshot " + this.store.file()
				+ " exists but is unreadable: it is truncated";
		runner().run((context) -> {
			assertThat(context).hasFailed();
			Throwable failure = context.getStartupFailure();
			while (failure != null && !(failure instanceof ZkStartupException)) {
				failure = failure.getCause();
			}
			assertThat(failure).isNotNull();
			assertThat(((ZkStartupException) failure).getDescription()).contains(unreadable)
				.doesNotContain("no configuration snapshot");
		});
		runner().withPropertyValues("zk.config.fail-fast=false").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(output).contains(unreadable).doesNotContain("no configuration snapshot");
		});
	}

	@Test
	void aSnapshotOwnedBySomeoneElseIsRefused() throws IOException {
		this.store.write(List.of(source("ours")));
		UserPrincipal nobody;
		try {
			nobody = this.directory.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
			Files.setOwner(this.store.file(), nobody);
		}
		catch (IOException | UnsupportedOperationException ex) {
			Assumptions.abort("changing a file's owner needs privileges this test run does not have");
			return;
		}
		assertThatIOException().isThrownBy(this.store::read).withMessageContaining("it is owned by nobody");
	}

	@Test
	void aDirectoryItCreatesIsOwnerOnlyAndNoTemporaryFileIsLeft() throws IOException {
		Path nested = this.directory.resolve("a/b");
		ConfigSnapshotStore store = new ConfigSnapshotStore(nested.resolve("orders.json"));
		store.write(List.of(source("ours")));
		assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(nested))).isEqualTo("rwx------");
		assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(nested.getParent()))).isEqualTo("rwx------");
		try (var files = Files.list(nested)) {
			assertThat(files).containsExactly(store.file());
		}
	}

	@Test
	void aFailingLocatorsMessageIsNotPartOfTheStartupFailure() throws Exception {
		new ApplicationContextRunner().withInitializer(new ZkConfigInitializer())
			.withPropertyValues(zk.connectProperty(), "zk.config.snapshot-dir=" + this.directory,
					"spring.application.name=orders", "test.locator.enabled=true", "test.locator.fail=true")
			.run((context) -> {
				assertThat(context).hasFailed();
				Throwable failure = context.getStartupFailure();
				while (failure != null && !(failure instanceof ZkStartupException)) {
					failure = failure.getCause();
				}
				assertThat(failure).isNotNull();
				assertThat(failure.getMessage()).contains(TestPropertySourceLocator.class.getName())
					.contains(IllegalStateException.class.getName());
				for (Throwable cause = context.getStartupFailure(); cause != null; cause = cause.getCause()) {
					assertThat(String.valueOf(cause.getMessage())).doesNotContain(BadDocument.SECRET);
				}
			});
	}

	private ApplicationContextRunner runner() {
		return ConfigTestSupport.runner(zk, this.directory)
			.withPropertyValues("zk.connect=" + this.unreachable, "zk.connection-timeout=500ms");
	}

	private static ZnodePropertySource source(String greeting) {
		return new ZnodePropertySource("/config/orders", 1, Map.of("shop.greeting", greeting));
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

}
