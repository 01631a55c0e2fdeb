package dev.zkspring.sample.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The commands of the README's five-minute tour, read from README.md as a newcomer copies them, with the
 * tour's ports (ZooKeeper on 2181, instances on 8080-8082) and jar path replaced by a test fleet's.
 */
final class TourCommands {

	private final String tour;

	private final int zkPort;

	private final int[] ports;

	TourCommands(int zkPort, int... ports) throws IOException {
		String readme = Files.readString(Paths.get(System.getProperty("basedir", ".")).toAbsolutePath().getParent()
			.resolve("README.md"));
		this.tour = readme.substring(readme.indexOf("## A five-minute tour"));
		this.zkPort = zkPort;
		this.ports = ports;
	}

	/** The tour's bash block that contains {@code marker}, for this fleet. */
	String block(String marker) {
		for (String block : this.tour.split("```bash\n")) {
			String commands = block.substring(0, Math.max(0, block.indexOf("```")));
			if (commands.contains(marker)) {
				String local = commands.replace("sample-app/target/sample-app.jar", SampleProcess.jar().toString())
					.replace("zk-spring-cli/target/zk-spring-cli.jar", cliJar())
					.replace("localhost:2181", "127.0.0.1:" + this.zkPort)
					.replace("for p in 8080 8081 8082",
							"for p in " + this.ports[0] + " " + this.ports[1] + " " + this.ports[2])
					.replace("localhost:8080", "localhost:" + this.ports[0]);
				assertThat(local).as("the tour's ports, replaced").doesNotContain(":2181").doesNotContain("8082");
				return local;
			}
		}
		throw new AssertionError("No bash block with '" + marker + "' in the README's tour");
	}

	/** What the tour shows a command prints: the plain block right after the bash block that contains {@code marker}. */
	String shownAfter(String marker) {
		int command = this.tour.indexOf(marker);
		assertThat(command).as("'%s' in the README's tour", marker).isNotNegative();
		int open = this.tour.indexOf("```\n", this.tour.indexOf("```\n", command) + 4);
		return this.tour.substring(open + 4, this.tour.indexOf("```", open + 4));
	}

	/** The publishing tool's jar, which the build packages before the sample's end-to-end tests run. */
	static String cliJar() {
		java.nio.file.Path jar = Paths.get(System.getProperty("basedir", ".")).toAbsolutePath().getParent()
			.resolve("zk-spring-cli/target/zk-spring-cli.jar");
		assertThat(jar).as("the tour's tool: build it first (mvn -pl zk-spring-cli -am package)").exists();
		return jar.toString();
	}

	/** Runs the commands with bash; returns what they printed (stdout and stderr), after a zero exit status. */
	static String run(String commands) throws Exception {
		Process process = new ProcessBuilder("bash", "-c", commands).redirectErrorStream(true).start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
		System.out.println("$ " + commands + "\n" + output);
		assertThat(process.exitValue()).as("exit status of%n%s%n%s", commands, output).isZero();
		return output;
	}

}
