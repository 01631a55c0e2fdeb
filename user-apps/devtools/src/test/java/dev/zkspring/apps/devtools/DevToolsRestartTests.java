package dev.zkspring.apps.devtools;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The application run as a developer runs it, in a JVM of its own with DevTools, then restarted by its
 * stand-in for a rebuild (Restarter.restart, as DevTools calls it on a classpath change): the new context reads the configuration again (a value changed meanwhile is there), it
 * has a session of its own, and the old context's client is closed (one connection on the server, not two).
 */
class DevToolsRestartTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@Test
	void aRestartReadsTheConfigurationAgainOnOneSessionAndLeaksNoClient() throws Exception {
		try (CuratorFramework writer = zk.newClient()) {
			writer.create().creatingParentsIfNeeded().forPath("/config/devtools",
					"{\"greeting\":{\"text\":\"one\"}}".getBytes(StandardCharsets.UTF_8));
			int before = connections();
			List<String> started = new CopyOnWriteArrayList<>();
			Process app = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
					System.getProperty("java.class.path"), DevToolsApplication.class.getName(),
					"--zk.connect=" + zk.connectString(), "--zk.config.snapshot-enabled=false")
				.redirectErrorStream(true).start();
			try {
				Thread reader = new Thread(() -> read(app, started), "app-output");
				reader.setDaemon(true);
				reader.start();
				await("first start").atMost(Duration.ofSeconds(60)).until(() -> started.size() == 1);
				assertThat(started.get(0)).startsWith("greeting=one ");
				await("one connection of the application's").atMost(Duration.ofSeconds(10))
					.untilAsserted(() -> assertThat(connections()).as("connections (before the application: " + before + "), started: " + started).isEqualTo(before + 1));
				writer.setData().forPath("/config/devtools", "{\"greeting\":{\"text\":\"two\"}}".getBytes(StandardCharsets.UTF_8));
				app.getOutputStream().write("restart\n".getBytes(StandardCharsets.UTF_8));
				app.getOutputStream().flush();
				await("restart").atMost(Duration.ofSeconds(60)).until(() -> started.size() == 2);
				assertThat(started.get(1)).as("the restarted context read the configuration again").startsWith("greeting=two ");
				assertThat(session(started.get(1))).isNotEqualTo(session(started.get(0)));
				await("the old context's client closed").atMost(Duration.ofSeconds(10))
					.untilAsserted(() -> assertThat(connections()).as("connections (before the application: " + before + "), started: " + started).isEqualTo(before + 1));
			}
			finally {
				app.destroy();
				app.waitFor(10, TimeUnit.SECONDS);
			}
		}
	}

	private static void read(Process app, List<String> started) {
		try (BufferedReader lines = new BufferedReader(new InputStreamReader(app.getInputStream(), StandardCharsets.UTF_8))) {
			String line;
			while ((line = lines.readLine()) != null) {
				// the application's whole output, for a failure's diagnosis
				System.out.println("[app] " + line);
				if (line.startsWith("STARTED ")) {
					started.add(line.substring("STARTED ".length()));
				}
			}
		}
		catch (Exception ex) {
			// the process ended
		}
	}

	private static String session(String started) {
		return started.substring(started.indexOf("session="));
	}

	/** Client connections the server has now, as its {@code srvr} four-letter word counts them. */
	private static int connections() throws Exception {
		int port = Integer.parseInt(zk.connectString().substring(zk.connectString().lastIndexOf(':') + 1));
		try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
			socket.getOutputStream().write("srvr".getBytes(StandardCharsets.US_ASCII));
			String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
			for (String line : answer.split("\n")) {
				if (line.startsWith("Connections: ")) {
					return Integer.parseInt(line.substring("Connections: ".length()).trim());
				}
			}
			throw new IllegalStateException("no connection count in the server's srvr answer: " + answer);
		}
	}

}
