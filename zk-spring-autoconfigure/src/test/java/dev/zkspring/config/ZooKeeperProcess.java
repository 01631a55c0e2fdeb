package dev.zkspring.config;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;

import static org.awaitility.Awaitility.await;

/**
 * A standalone ZooKeeper server in a JVM of its own, from a classpath of any version: the servers users
 * run are not all the 3.9 the tests embed. {@link #debian()} is Debian's {@code zookeeper} package (3.8.0
 * on Debian 12), which {@code .ci/run} installs; {@link #fromTestClasspath()} is the tested client's own
 * version, in another process.
 */
final class ZooKeeperProcess implements AutoCloseable {

	/** Where Debian's {@code zookeeper} package puts the server's jar (its manifest names the rest). */
	static final Path DEBIAN_JAR = Path.of("/usr/share/java/zookeeper.jar");

	private final Process process;

	private final int port;

	private final Path dir;

	private ZooKeeperProcess(String classpath, Path dir, int port) throws IOException {
		this.dir = dir;
		this.port = (port != 0) ? port : freePort();
		Path data = Files.createDirectories(dir.resolve("data"));
		Path config = dir.resolve("zoo.cfg");
		Files.writeString(config, String.join("\n", "tickTime=500", "dataDir=" + data, "clientPort=" + this.port,
				"clientPortAddress=127.0.0.1", "maxSessionTimeout=60000", "4lw.commands.whitelist=srvr",
				"admin.enableServer=false", ""));
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		this.process = new ProcessBuilder(List.of(java, "-Xmx256m", "-cp", classpath,
				"org.apache.zookeeper.server.ZooKeeperServerMain", config.toString()))
			.redirectErrorStream(true)
			.redirectOutput(dir.resolve("server.log").toFile())
			.start();
		await("ZooKeeper server on port " + this.port + " (log " + dir.resolve("server.log") + ")")
			.atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).ignoreExceptions()
			.until(() -> fourLetterWord("srvr").contains("Mode: standalone"));
	}

	/**
	 * Debian's packaged server. Skipped where the package is not installed, except on CI, where
	 * {@code .ci/run} installs it and its absence is a failure.
	 */
	static ZooKeeperProcess debian(Path dir) throws IOException {
		if (!Files.isRegularFile(DEBIAN_JAR)) {
			String missing = "Debian's zookeeper package is not installed (" + DEBIAN_JAR
					+ "): apt-get install zookeeper; .ci/run installs it";
			if ("true".equals(System.getenv("CI"))) {
				throw new IllegalStateException(missing);
			}
			Assumptions.abort(missing);
		}
		return new ZooKeeperProcess(DEBIAN_JAR.toString(), dir, 0);
	}

	/** The ZooKeeper server of the test classpath (the version the library is built with), in another process. */
	static ZooKeeperProcess fromTestClasspath(Path dir) throws IOException {
		return fromTestClasspath(dir, 0);
	}

	/** The same, on the given port ({@code 0} for a free one). */
	static ZooKeeperProcess fromTestClasspath(Path dir, int port) throws IOException {
		return new ZooKeeperProcess(System.getProperty("java.class.path"), dir, port);
	}

	/**
	 * ZooKeeper 3.5.10, below the config center's minimum, on the given port ({@code 0} for a free one):
	 * its jars are copied to {@code target/zookeeper-3.5} by the build, SLF4J's API comes from the test classpath.
	 */
	static ZooKeeperProcess version35(Path dir, int port) throws IOException {
		List<String> classpath = new ArrayList<>();
		try (Stream<Path> jars = Files.list(Path.of("target", "zookeeper-3.5"))) {
			jars.map(Path::toAbsolutePath).map(Path::toString).forEach(classpath::add);
		}
		Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
			.filter((entry) -> entry.contains("slf4j-api")).forEach(classpath::add);
		return new ZooKeeperProcess(String.join(File.pathSeparator, classpath), dir, port);
	}

	int port() {
		return this.port;
	}

	String connectString() {
		return "127.0.0.1:" + this.port;
	}

	/** The server's own word of its version, e.g. {@code 3.8.0}. */
	String version() throws IOException {
		for (String line : fourLetterWord("srvr").split("\n")) {
			if (line.startsWith("Zookeeper version: ")) {
				String version = line.substring("Zookeeper version: ".length());
				int end = 0;
				while (end < version.length() && (Character.isDigit(version.charAt(end)) || version.charAt(end) == '.')) {
					end++;
				}
				return version.substring(0, end);
			}
		}
		throw new IOException("no version in the server's srvr answer");
	}

	private String fourLetterWord(String word) throws IOException {
		try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), this.port)) {
			socket.setSoTimeout(2000);
			OutputStream out = socket.getOutputStream();
			out.write(word.getBytes(StandardCharsets.US_ASCII));
			out.flush();
			InputStream in = socket.getInputStream();
			return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
		}
	}

	static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

	@Override
	public void close() throws InterruptedException {
		this.process.destroy();
		if (!this.process.waitFor(10, TimeUnit.SECONDS)) {
			this.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
		}
	}

	@Override
	public String toString() {
		return "ZooKeeper server process " + this.process.pid() + " on " + connectString() + " (" + this.dir + ")";
	}

}
