package dev.zkspring.apps.devtools;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

import org.apache.curator.framework.CuratorFramework;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.CommandLineRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.devtools.restart.Restarter;
import org.springframework.context.annotation.Bean;

/**
 * A developer's application with DevTools: every restart (a change on the classpath) closes the context
 * and starts a new one in a new class loader; each start says which value and which session it has.
 */
@SpringBootApplication
public class DevToolsApplication {

	public static void main(String[] args) {
		SpringApplication.run(DevToolsApplication.class, args);
	}

	/**
	 * Restart as DevTools does on a change of the classpath, when a line "restart" comes on stdin: the
	 * test's stand-in for a developer's rebuild (one reader for the process, whichever class loader runs).
	 */
	@Bean
	CommandLineRunner restartOnRequest() {
		return (args) -> {
			if (System.getProperty("devtools-app.stdin") != null) {
				return;
			}
			System.setProperty("devtools-app.stdin", "read");
			Thread reader = new Thread(() -> {
				try (BufferedReader lines = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
					String line;
					while ((line = lines.readLine()) != null) {
						if ("restart".equals(line.trim())) {
							Restarter.getInstance().restart();
						}
					}
				}
				catch (IOException ex) {
					// stdin closed: nothing more to read
				}
			}, "restart-on-request");
			reader.setDaemon(true);
			reader.start();
		};
	}

	@Bean
	CommandLineRunner started(CuratorFramework client, @Value("${greeting.text:none}") String greeting) {
		return (args) -> System.out.println("STARTED greeting=" + greeting + " connect=" + client.getZookeeperClient().getCurrentConnectionString() + " session=0x"
				+ Long.toHexString(client.getZookeeperClient().getZooKeeper().getSessionId()));
	}

}
