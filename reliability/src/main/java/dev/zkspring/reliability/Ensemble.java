package dev.zkspring.reliability;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A 3-node ZooKeeper ensemble as three OS processes running ZooKeeper's own {@code QuorumPeerMain} on
 * loopback ports, each killable with SIGKILL and restartable on the same data.
 */
final class Ensemble implements AutoCloseable {

	static final int TICK_MILLIS = 500;

	private final Path dir;

	private final int[] clientPorts = new int[3];

	private final Process[] servers = new Process[3];

	Ensemble(Path dir) throws IOException {
		this.dir = dir;
		int[] quorumPorts = new int[3];
		int[] electionPorts = new int[3];
		for (int i = 0; i < 3; i++) {
			this.clientPorts[i] = Processes.freePort();
			quorumPorts[i] = Processes.freePort();
			electionPorts[i] = Processes.freePort();
		}
		Files.writeString(dir.resolve("logback-zk.xml"), """
				<configuration>
				  <appender name="out" class="ch.qos.logback.core.ConsoleAppender">
				    <encoder><pattern>%d %-5level %logger{20} - %msg%n</pattern></encoder>
				  </appender>
				  <root level="WARN"><appender-ref ref="out"/></root>
				</configuration>
				""");
		for (int i = 0; i < 3; i++) {
			Path serverDir = Files.createDirectories(dir.resolve("zk" + (i + 1)));
			Files.createDirectories(serverDir.resolve("data"));
			Files.writeString(serverDir.resolve("data").resolve("myid"), Integer.toString(i + 1));
			StringBuilder config = new StringBuilder();
			config.append("tickTime=").append(TICK_MILLIS).append('\n')
				.append("initLimit=10\nsyncLimit=5\n")
				.append("dataDir=").append(serverDir.resolve("data")).append('\n')
				.append("clientPort=").append(this.clientPorts[i]).append('\n')
				.append("clientPortAddress=127.0.0.1\n")
				.append("4lw.commands.whitelist=srvr\n")
				.append("admin.enableServer=false\n")
				.append("forceSync=no\n");
			for (int j = 0; j < 3; j++) {
				config.append("server.").append(j + 1).append("=127.0.0.1:").append(quorumPorts[j]).append(':')
					.append(electionPorts[j]).append('\n');
			}
			Files.writeString(serverDir.resolve("zoo.cfg"), config.toString());
		}
		for (int i = 0; i < 3; i++) {
			start(i);
		}
	}

	int clientPort(int server) {
		return this.clientPorts[server];
	}

	String connectString() {
		return java.util.Arrays.stream(this.clientPorts).mapToObj((port) -> "127.0.0.1:" + port)
			.collect(Collectors.joining(","));
	}

	void start(int server) {
		Path serverDir = this.dir.resolve("zk" + (server + 1));
		this.servers[server] = Processes.startJava(serverDir.resolve("server.log"),
				List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
						"-Dlogback.configurationFile=" + this.dir.resolve("logback-zk.xml"),
						"-Dzookeeper.admin.enableServer=false"),
				"org.apache.zookeeper.server.quorum.QuorumPeerMain", List.of(serverDir.resolve("zoo.cfg").toString()));
	}

	void kill(int server) {
		Processes.kill9(this.servers[server]);
	}

	/** The member that reports itself leader, or -1. */
	int leader() {
		for (int i = 0; i < 3; i++) {
			if (srvr(this.clientPorts[i]).contains("Mode: leader")) {
				return i;
			}
		}
		return -1;
	}

	/** Members serving clients now (leader or follower). */
	List<Integer> serving() {
		List<Integer> serving = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			String answer = srvr(this.clientPorts[i]);
			if (answer.contains("Mode: leader") || answer.contains("Mode: follower")) {
				serving.add(i);
			}
		}
		return serving;
	}

	/** Wait, bounded, until all three members serve. */
	boolean awaitAllServing(long timeoutMillis) {
		long deadline = System.currentTimeMillis() + timeoutMillis;
		while (System.currentTimeMillis() < deadline) {
			if (serving().size() == 3) {
				return true;
			}
			Processes.pause(200);
		}
		return false;
	}

	@Override
	public void close() {
		for (Process server : this.servers) {
			if (server != null) {
				Processes.kill9(server);
			}
		}
	}

	private static String srvr(int port) {
		try (Socket socket = new Socket("127.0.0.1", port)) {
			socket.setSoTimeout(2_000);
			OutputStream out = socket.getOutputStream();
			out.write("srvr".getBytes(StandardCharsets.US_ASCII));
			out.flush();
			InputStream in = socket.getInputStream();
			return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
		}
		catch (IOException ex) {
			return "";
		}
	}

}
