package dev.zkspring.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.zookeeper.server.embedded.ExitHandler;
import org.apache.zookeeper.server.embedded.ZooKeeperServerEmbedded;
import org.jspecify.annotations.Nullable;

import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.util.FileSystemUtils;

import dev.zkspring.client.ZkStartupException;

/**
 * A standalone ZooKeeper server inside this JVM, listening on the loopback address only, so an
 * application runs with no ensemble installed. Close it after the clients that use it.
 */
public final class EmbeddedZooKeeper implements AutoCloseable {

	/** Name of the property source through which the server publishes {@code zk.connect}. */
	public static final String PROPERTY_SOURCE_NAME = "zkEmbeddedServer";

	private static final Log logger = LogFactory.getLog(EmbeddedZooKeeper.class);

	private static final String HOST = "127.0.0.1";

	private static final long STARTUP_TIMEOUT_MILLIS = 30_000;

	private final ZooKeeperServerEmbedded server;

	private final Path workDirectory;

	private final Path dataDirectory;

	private final int port;

	private final AtomicBoolean closed = new AtomicBoolean();

	private EmbeddedZooKeeper(ZooKeeperServerEmbedded server, Path workDirectory, Path dataDirectory) {
		this.server = server;
		this.workDirectory = workDirectory;
		this.dataDirectory = dataDirectory;
		this.port = server.getClientPort();
	}

	/**
	 * Start a server and wait until it accepts connections.
	 * @param port the port to listen on ({@code zk.embedded.port}); 0 picks a free one
	 * @param dataDirectory where to keep data ({@code zk.embedded.data-dir}); {@code null} means a
	 * temporary directory that is removed on close
	 * @return the started server
	 * @throws ZkStartupException naming the port when it is taken or invalid
	 */
	public static EmbeddedZooKeeper start(int port, @Nullable Path dataDirectory) {
		if (port < 0 || port > 65535) {
			throw new ZkStartupException("zk.embedded.port " + port + " is not a port number.",
					"Set zk.embedded.port between 1 and 65535, or to 0 to pick a free port.");
		}
		if (port != 0) {
			ensureFree(port);
		}
		Path work = createWorkDirectory();
		Path data = (dataDirectory != null) ? dataDirectory.toAbsolutePath() : work.resolve("data");
		try {
			ZooKeeperServerEmbedded server = ZooKeeperServerEmbedded.builder()
				.baseDir(work)
				.configuration(configuration(port, data))
				.exitHandler(ExitHandler.LOG_ONLY)
				.build();
			start(server, port);
			EmbeddedZooKeeper embedded = new EmbeddedZooKeeper(server, work, data);
			logger.info("Embedded ZooKeeper listening on " + embedded.connectString() + ", data in " + data);
			return embedded;
		}
		catch (RuntimeException ex) {
			FileSystemUtils.deleteRecursively(work.toFile());
			throw ex;
		}
		catch (Exception ex) {
			FileSystemUtils.deleteRecursively(work.toFile());
			throw new ZkStartupException("The embedded ZooKeeper could not start on port " + port + ": " + ex + ".",
					"Check zk.embedded.data-dir is writable, or turn the embedded server off with "
							+ "zk.embedded.enabled=false and set zk.connect.",
					ex);
		}
	}

	private static void start(ZooKeeperServerEmbedded server, int port) throws Exception {
		try {
			server.start(STARTUP_TIMEOUT_MILLIS);
		}
		catch (TimeoutException ex) {
			server.close();
			throw new ZkStartupException("The embedded ZooKeeper did not start on port " + port + " (zk.embedded.port) within "
					+ STARTUP_TIMEOUT_MILLIS / 1000 + "s; the port may have been taken meanwhile.",
					"Set zk.embedded.port to a free port, or 0 to pick one.", ex);
		}
	}

	private static Properties configuration(int port, Path data) {
		Properties properties = new Properties();
		properties.putAll(Map.of("clientPort", String.valueOf(port), "clientPortAddress", HOST, "dataDir",
				data.toString(), "tickTime", "1000", "maxSessionTimeout", "120000", "maxCnxns", "0",
				// ZooKeeper turns unknown keys into system properties: this one is zookeeper.admin.enableServer
				"admin.enableServer", "false"));
		return properties;
	}

	private static void ensureFree(int port) {
		try (ServerSocket socket = new ServerSocket()) {
			socket.bind(new InetSocketAddress(InetAddress.getByName(HOST), port));
		}
		catch (IOException ex) {
			throw new ZkStartupException(
					"The embedded ZooKeeper cannot listen on port " + port + " (zk.embedded.port): it is already in use.",
					"Stop whatever listens on port " + port + ", set zk.embedded.port to a free port or 0, or connect "
							+ "to the server already there with zk.embedded.enabled=false and zk.connect=localhost:" + port
							+ ".",
					ex);
		}
	}

	private static Path createWorkDirectory() {
		try {
			return Files.createTempDirectory("zk-spring-embedded-");
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot create a temporary directory for the embedded ZooKeeper", ex);
		}
	}

	/** Where clients connect: the loopback address and the bound port. */
	public String connectString() {
		return HOST + ":" + this.port;
	}

	/** The port the server listens on, the chosen one when {@code zk.embedded.port} is 0. */
	public int port() {
		return this.port;
	}

	/** Where the server keeps its data. */
	public Path dataDirectory() {
		return this.dataDirectory;
	}

	/**
	 * Make {@code zk.connect} resolve to this server, above every other source, so everything that
	 * reads the property reaches the server the application actually uses.
	 * @param environment the application's environment
	 */
	public void publishConnectString(ConfigurableEnvironment environment) {
		environment.getPropertySources()
			.addFirst(new MapPropertySource(PROPERTY_SOURCE_NAME, Map.of("zk.connect", connectString())));
	}

	/** Stop the server and remove its temporary files; a {@code zk.embedded.data-dir} is kept. */
	@Override
	public void close() {
		if (this.closed.compareAndSet(false, true)) {
			this.server.close();
			FileSystemUtils.deleteRecursively(this.workDirectory.toFile());
			logger.info("Embedded ZooKeeper on port " + this.port + " stopped");
		}
	}

}
