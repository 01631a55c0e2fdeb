package dev.zkspring.test;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.awaitility.Awaitility.await;

/**
 * A ZooKeeper that listens on a TLS port only, run in a JVM of its own so that its
 * {@code zookeeper.ssl.*} system properties cannot leak into the clients under test. The key and trust
 * stores are generated with the JDK's keytool.
 */
public final class TlsZooKeeperServer implements AutoCloseable {

	/** Password of every store this class generates. */
	public static final String PASSWORD = "changeit";

	private final Path directory;

	private final Process process;

	private final int port;

	private TlsZooKeeperServer(Path directory, Process process, int port) {
		this.directory = directory;
		this.process = process;
		this.port = port;
	}

	/** Generate stores in the directory and start a TLS-only server that trusts its own certificate. */
	public static TlsZooKeeperServer start(Path directory) throws Exception {
		return start(directory, "CN=localhost", "SAN=dns:localhost,ip:127.0.0.1");
	}

	/**
	 * Like {@link #start(Path)}, with a certificate of the given subject and alternative names (the
	 * keytool {@code -ext} value), for a server whose certificate names another host.
	 */
	public static TlsZooKeeperServer start(Path directory, String distinguishedName, String subjectAlternativeNames)
			throws Exception {
		Stores.generate(directory, "server", distinguishedName, subjectAlternativeNames);
		int port = freePort();
		Path config = directory.resolve("zoo.cfg");
		Files.writeString(config, String.join("\n", "tickTime=2000", "dataDir=" + directory.resolve("data"),
				"secureClientPort=" + port, "secureClientPortAddress=127.0.0.1", "admin.enableServer=false", ""));
		List<String> command = new ArrayList<>(List.of(javaExecutable(), "-cp", System.getProperty("java.class.path"),
				"-Dzookeeper.serverCnxnFactory=org.apache.zookeeper.server.NettyServerCnxnFactory",
				"-Dzookeeper.ssl.keyStore.location=" + Stores.keyStore(directory, "server"),
				"-Dzookeeper.ssl.keyStore.password=" + PASSWORD,
				"-Dzookeeper.ssl.trustStore.location=" + Stores.trustStore(directory, "server"),
				"-Dzookeeper.ssl.trustStore.password=" + PASSWORD, "org.apache.zookeeper.server.ZooKeeperServerMain",
				config.toString()));
		Process process = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(directory.resolve("server.log").toFile())
			.start();
		TlsZooKeeperServer server = new TlsZooKeeperServer(directory, process, port);
		await().atMost(Duration.ofSeconds(30)).until(() -> !process.isAlive() || server.accepts());
		if (!process.isAlive()) {
			throw new IllegalStateException("TLS ZooKeeper exited:\n" + Files.readString(directory.resolve("server.log")));
		}
		return server;
	}

	/** The TLS port on the loopback address. */
	public String connectString() {
		return "127.0.0.1:" + this.port;
	}

	/** The key store holding the certificate the server trusts for clients. */
	public Path keyStore() {
		return Stores.keyStore(this.directory, "server");
	}

	/** A trust store that trusts the server's certificate. */
	public Path trustStore() {
		return Stores.trustStore(this.directory, "server");
	}

	private boolean accepts() {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress("127.0.0.1", this.port), 500);
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

	private static String javaExecutable() {
		return System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
	}

	@Override
	public void close() throws InterruptedException {
		this.process.destroy();
		if (!this.process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
			this.process.destroyForcibly();
		}
	}

	/** Self-signed key pairs in PKCS12 stores, made with keytool. */
	public static final class Stores {

		private Stores() {
		}

		/** A key store with a fresh key pair for localhost / 127.0.0.1, and a trust store holding its certificate. */
		public static void generate(Path directory, String name, String distinguishedName) throws Exception {
			generate(directory, name, distinguishedName, "SAN=dns:localhost,ip:127.0.0.1");
		}

		/** As {@link #generate(Path, String, String)}, with the given alternative names (keytool's -ext value). */
		public static void generate(Path directory, String name, String distinguishedName,
				String subjectAlternativeNames) throws Exception {
			Path keyStore = keyStore(directory, name);
			Path certificate = directory.resolve(name + ".crt");
			keytool("-genkeypair", "-alias", name, "-keyalg", "RSA", "-keysize", "2048", "-validity", "2", "-dname",
					distinguishedName, "-ext", subjectAlternativeNames, "-keystore", keyStore.toString(),
					"-storetype", "PKCS12", "-storepass", PASSWORD, "-keypass", PASSWORD);
			keytool("-exportcert", "-alias", name, "-keystore", keyStore.toString(), "-storepass", PASSWORD, "-file",
					certificate.toString());
			keytool("-importcert", "-noprompt", "-alias", name, "-file", certificate.toString(), "-keystore",
					trustStore(directory, name).toString(), "-storetype", "PKCS12", "-storepass", PASSWORD);
		}

		public static Path keyStore(Path directory, String name) {
			return directory.resolve(name + "-keystore.p12");
		}

		public static Path trustStore(Path directory, String name) {
			return directory.resolve(name + "-truststore.p12");
		}

		private static void keytool(String... arguments) throws Exception {
			List<String> command = new ArrayList<>();
			command.add(System.getProperty("java.home") + File.separator + "bin" + File.separator + "keytool");
			command.addAll(List.of(arguments));
			Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
			String output = new String(process.getInputStream().readAllBytes());
			if (process.waitFor() != 0) {
				throw new IllegalStateException("keytool " + arguments[0] + " failed: " + output);
			}
		}

	}

}
