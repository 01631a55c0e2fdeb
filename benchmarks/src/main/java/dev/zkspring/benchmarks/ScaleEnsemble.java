package dev.zkspring.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;


/**
 * The servers of one scale run — a 3-node ensemble (curator-test's {@link TestingCluster}, in this
 * process) or one server ({@link TestingServer}, so both have the same settings) — and what they report about themselves through the {@code mntr}
 * four-letter word, summed over the servers.
 */
final class ScaleEnsemble implements AutoCloseable {

	private final String label;

	private final String connectString;

	private final List<Integer> ports;

	private final AutoCloseable servers;

	private ScaleEnsemble(String label, String connectString, List<Integer> ports, AutoCloseable servers) {
		this.label = label;
		this.connectString = connectString;
		this.ports = ports;
		this.servers = servers;
	}

	static ScaleEnsemble threeNodes() throws Exception {
		System.setProperty("zookeeper.4lw.commands.whitelist", "*");
		List<InstanceSpec> specs = new ArrayList<>();
		for (int id = 1; id <= 3; id++) {
			specs.add(spec(id));
		}
		TestingCluster cluster = new TestingCluster(specs);
		cluster.start();
		List<Integer> ports = cluster.getInstances().stream().map(InstanceSpec::getPort).toList();
		return new ScaleEnsemble("3-node ensemble", cluster.getConnectString(), ports, cluster);
	}

	static ScaleEnsemble oneServer() throws Exception {
		System.setProperty("zookeeper.4lw.commands.whitelist", "*");
		InstanceSpec spec = spec(1);
		TestingServer server = new TestingServer(spec, true);
		return new ScaleEnsemble("one server", server.getConnectString(), List.of(spec.getPort()), server);
	}

	/**
	 * ZooKeeper's default tick (2 s), fsync on, and no limit on connections from one address (60 by
	 * default, and every instance here connects from 127.0.0.1).
	 */
	private static InstanceSpec spec(int id) {
		return new InstanceSpec(null, -1, -1, -1, true, id, 2000, 0);
	}

	String label() {
		return this.label;
	}

	String connectString() {
		return this.connectString;
	}

	/** {@code mntr} of every server, numeric values summed by key. */
	Map<String, Double> mntr() throws IOException {
		Map<String, Double> sum = new HashMap<>();
		for (int port : this.ports) {
			String answer = fourLetterWord(port, "mntr");
			if (!answer.contains("zk_packets_received")) {
				// a server that does not report would count as zero: fail instead
				throw new IllegalStateException("server :" + port + " answered mntr with: " + answer.lines().findFirst().orElse(""));
			}
			for (String line : answer.split("\n")) {
				String[] parts = line.split("\t");
				if (parts.length == 2) {
					try {
						sum.merge(parts[0], Double.parseDouble(parts[1].trim()), Double::sum);
					}
					catch (NumberFormatException ex) {
						// a text value (version, server state)
					}
				}
			}
		}
		return sum;
	}

	double metric(String key) throws IOException {
		Double value = mntr().get(key);
		if (value == null) {
			throw new IllegalStateException("the servers' mntr has no " + key);
		}
		return value;
	}

	private static String fourLetterWord(int port, String word) throws IOException {
		try (Socket socket = new Socket("127.0.0.1", port)) {
			socket.setSoTimeout(5_000);
			OutputStream out = socket.getOutputStream();
			out.write(word.getBytes(StandardCharsets.US_ASCII));
			out.flush();
			InputStream in = socket.getInputStream();
			return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
		}
	}

	/**
	 * End a client's session on the server, as a long partition would: a second connection takes the
	 * session over and closes it, so its ephemeral nodes go at once.
	 */
	static void expireSession(CuratorFramework client) throws Exception {
		ZooKeeper zooKeeper = client.getZookeeperClient().getZooKeeper();
		CountDownLatch connected = new CountDownLatch(1);
		ZooKeeper twin = new ZooKeeper(client.getZookeeperClient().getCurrentConnectionString(), 10_000, (event) -> {
			if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
				connected.countDown();
			}
		}, zooKeeper.getSessionId(), zooKeeper.getSessionPasswd());
		try {
			if (!connected.await(10, TimeUnit.SECONDS)) {
				throw new IllegalStateException("could not take over a session to expire it");
			}
		}
		finally {
			twin.close();
		}
	}

	@Override
	public void close() throws Exception {
		this.servers.close();
	}

}
