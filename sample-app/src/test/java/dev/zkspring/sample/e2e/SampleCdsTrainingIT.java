package dev.zkspring.sample.e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A CDS training run ({@code -XX:ArchiveClassesAtExit} with {@code spring.context.exit=onRefresh}) of the
 * sample set to an ensemble where nothing listens: it neither connects nor waits for the 60 s connection
 * timeout, exits 0 once the context is refreshed and leaves an archive that the next start uses.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class SampleCdsTrainingIT {

	@Test
	void trainingRunExitsCleanlyWithoutZooKeeperAndTheArchiveStartsTheSample() throws Exception {
		Path dir = Files.createDirectories(Paths.get(SampleProcess.required("sample.e2e-dir"))).toAbsolutePath()
			.resolve("cds-" + UUID.randomUUID());
		Path archive = dir.resolve("app.jsa");
		String jar = SampleProcess.jar().toString();
		SampleProcess training = SampleProcess.start("cds-training", SampleProcess.freePort(),
				List.of("-XX:ArchiveClassesAtExit=" + archive, "-Dspring.context.exit=onRefresh", "-jar", jar),
				List.of("--sample.data-dir=" + dir.resolve("db"), "--zk.embedded.enabled=false",
						"--zk.connect=127.0.0.1:" + SampleProcess.freePort(), "--zk.connection-timeout=60s"));
		try {
			assertThat(training.waitFor(Duration.ofSeconds(50))).as("training run ended before the connection timeout")
				.isTrue();
		}
		finally {
			if (training.isAlive()) {
				training.kill();
			}
		}
		assertThat(training.exitValue()).as("exit status; see %s", SampleProcess.logFile("cds-training")).isZero();
		assertThat(training.output()).contains("Not connecting to ZooKeeper and not loading its configuration: "
				+ "this is a training run that exits once the context is refreshed (spring.context.exit=onRefresh");
		assertThat(archive).isNotEmptyFile();

		SampleProcess trained = SampleProcess.start("cds-trained", SampleProcess.freePort(),
				List.of("-XX:SharedArchiveFile=" + archive, "-jar", jar),
				List.of("--sample.data-dir=" + dir.resolve("db"), "--zk.embedded.port=" + SampleProcess.freePort()));
		try {
			trained.awaitReady(Duration.ofSeconds(90));
		}
		finally {
			trained.stop();
		}
	}

}
