package dev.zkspring.sample.e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.util.FileSystemUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A healthy start of the packaged sample, as a user sees it on the console (issue 31.3): no line at WARN
 * or above, none of the libraries' chatter (ZooKeeper's client and server, Curator, Quartz), and about
 * twenty lines in all, through to the grant of leadership and the start of the leader-gated scheduler.
 */
class SampleStartupIT {

	@Test
	void aHealthyStartIsQuietAndShort() throws Exception {
		Path dataDir = Paths.get(System.getProperty("sample.e2e-dir"), "startup");
		FileSystemUtils.deleteRecursively(dataDir);
		Files.createDirectories(dataDir);
		SampleProcess sample = SampleProcess.start("startup", SampleProcess.freePort(),
				List.of("--zk.embedded.port=" + SampleProcess.freePort(), "--sample.data-dir=" + dataDir));
		try {
			sample.awaitReady(Duration.ofSeconds(90));
			await().atMost(Duration.ofSeconds(30))
				.until(() -> sample.outputLines().stream().anyMatch((line) -> line.contains("Quartz scheduler 'quartzScheduler' started")));
			List<String> lines = sample.outputLines();
			assertThat(lines).filteredOn((line) -> line.matches("^\\S+\\s+(WARN|ERROR)\\b.*")).isEmpty();
			assertThat(String.join("\n", lines)).doesNotContain("New config event received")
				.doesNotContain("Client environment:")
				.doesNotContain("Currently in standby mode")
				.doesNotContain("o.a.zookeeper.server");
			assertThat(lines).as("lines printed by a healthy start").hasSizeLessThanOrEqualTo(25);
		}
		finally {
			sample.stop();
		}
	}

}
