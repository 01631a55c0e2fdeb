package dev.zkspring.aot;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringApplicationAotProcessor;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Boot's AOT processing (what its {@code process-aot} goal runs) of an application whose {@code zk.connect}
 * names a port where nothing listens: it neither connects nor waits for the connection timeout, for the
 * initializer and for {@code spring.config.import=zk:} alike, and says why in one line.
 */
@ExtendWith(OutputCaptureExtension.class)
class AotProcessingWithoutZooKeeperTests {

	private static final Duration WELL_BELOW_THE_TIMEOUT = Duration.ofSeconds(20);

	@TempDir
	Path output;

	@Test
	void processingNeedsNoZooKeeper(CapturedOutput log) throws Exception {
		process("--zk.connect=127.0.0.1:" + deadPort(), "--zk.connection-timeout=60s");
		assertThat(this.output.resolve("sources/dev/zkspring/aot/AotProcessingWithoutZooKeeperTests_App__ApplicationContextInitializer.java")
			.toFile()).exists().isNotEmpty();
		assertThat(log).contains("Not connecting to ZooKeeper and not loading its configuration: this is Spring's AOT "
				+ "processing at build time (spring.aot.processing=true)");
		assertThat(System.getProperty("spring.aot.processing")).as("cleared after processing").isNull();
	}

	@Test
	void processingWithAZkImportNeedsNoZooKeeper(CapturedOutput log) throws Exception {
		// the import in a packaged file, as a Boot user writes it: zk-import-tests.yml
		process("--spring.config.name=zk-import-tests", "--test.zk.connect=127.0.0.1:" + deadPort(),
				"--test.snapshots=" + this.output.resolve("snapshots"), "--zk.connection-timeout=60s");
		assertThat(log).contains("Ignoring the import of").contains("(spring.aot.processing=true)");
	}

	private void process(String... args) throws IOException {
		Path sources = Files.createDirectories(this.output.resolve("sources"));
		SpringApplicationAotProcessor.Settings settings = SpringApplicationAotProcessor.Settings.builder()
			.sourceOutput(sources)
			.resourceOutput(Files.createDirectories(this.output.resolve("resources")))
			.classOutput(Files.createDirectories(this.output.resolve("classes")))
			.groupId("dev.zkspring")
			.artifactId("aot-test")
			.build();
		String[] all = new String[args.length + 3];
		System.arraycopy(args, 0, all, 0, args.length);
		all[args.length] = "--spring.main.web-application-type=none";
		all[args.length + 1] = "--zk.config.snapshot-dir=" + this.output.resolve("snapshots");
		all[args.length + 2] = "--spring.application.name=aot-test";
		// the processor writes generated sources; compiling them is the build's job, not this test's
		long start = System.nanoTime();
		new SpringApplicationAotProcessor(App.class, settings, all).process();
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(WELL_BELOW_THE_TIMEOUT);
	}

	private static int deadPort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

	/** A user's application, as Boot's processor starts it: through its main method. */
	@SpringBootApplication
	static class App {

		public static void main(String[] args) {
			SpringApplication.run(App.class, args);
		}

	}

}
