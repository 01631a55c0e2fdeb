package dev.zkspring.sample.e2e;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/** One sample-app JVM started from the packaged jar, with its output in a log file under the e2e directory. */
final class SampleProcess {

	static final JsonMapper json = JsonMapper.builder().build();

	static final HttpClient http = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	private final String name;

	private final int port;

	private final Process process;

	private final Path log;

	private SampleProcess(String name, int port, Process process, Path log) {
		this.name = name;
		this.port = port;
		this.process = process;
		this.log = log;
	}

	static SampleProcess start(String name, int port, List<String> args) throws IOException {
		return start(name, port, List.of("-jar", jar().toString()), args);
	}

	/**
	 * @param launch what follows the JVM's heap options: {@code -jar} and the jar, or system properties, a
	 * class path and a main class
	 */
	static SampleProcess start(String name, int port, List<String> launch, List<String> args) throws IOException {
		Path log = logFile(name);
		List<String> command = new ArrayList<>();
		command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
		command.add("-Xmx256m");
		command.add("-XX:TieredStopAtLevel=1");
		command.addAll(launch);
		command.add("--server.port=" + port);
		command.addAll(args);
		Process process = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		return new SampleProcess(name, port, process, log);
	}

	static Path jar() {
		Path jar = Paths.get(required("sample.jar"));
		if (!Files.isRegularFile(jar)) {
			throw new IllegalStateException("No packaged sample app at " + jar + ": run the package phase first");
		}
		return jar;
	}

	static Path logFile(String name) throws IOException {
		return Files.createDirectories(Paths.get(required("sample.e2e-dir"))).resolve(name + ".log");
	}

	static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

	static String required(String property) {
		String value = System.getProperty(property);
		if (value == null) {
			throw new IllegalStateException("System property " + property + " is not set (failsafe sets it in sample-app/pom.xml)");
		}
		return value;
	}

	/** Waits until the instance serves {@code /status} and is connected to ZooKeeper. */
	SampleProcess awaitReady(Duration timeout) {
		Awaitility.await("instance " + this.name + " ready (log: " + this.log + ")")
			.atMost(timeout)
			.pollInterval(Duration.ofMillis(250))
			.until(() -> {
				if (!this.process.isAlive()) {
					throw new IllegalStateException("instance " + this.name + " exited; see " + this.log);
				}
				try {
					return Boolean.TRUE.equals(status().get("connected"));
				}
				catch (IOException ex) {
					return false;
				}
			});
		return this;
	}

	/** Waits for the JVM to end by itself: whether it did within the timeout. */
	boolean waitFor(Duration timeout) throws InterruptedException {
		return this.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
	}

	int exitValue() {
		return this.process.exitValue();
	}

	/** What the instance has printed so far. */
	String output() throws IOException {
		return Files.readString(this.log);
	}

	String name() {
		return this.name;
	}

	int port() {
		return this.port;
	}

	URI uri(String path) {
		return URI.create("http://127.0.0.1:" + this.port + path);
	}

	Map<String, Object> status() throws IOException, InterruptedException {
		return getJson("/status", new TypeReference<>() { });
	}

	String id() throws IOException, InterruptedException {
		return (String) status().get("instance");
	}

	<T> T getJson(String path, TypeReference<T> type) throws IOException, InterruptedException {
		HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(10)).build(),
				HttpResponse.BodyHandlers.ofString());
		if (response.statusCode() != 200) {
			throw new IOException("GET " + path + " on " + this.name + ": " + response.statusCode() + " " + response.body());
		}
		return json.readValue(response.body(), type);
	}

	HttpResponse<String> send(String method, String path) throws IOException, InterruptedException {
		return http.send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(60))
			.method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
	}

	/** A {@code POST} with a JSON body, as an operator's {@code curl -H 'Content-Type: application/json' -d ...}. */
	HttpResponse<String> postJson(String path, String body) throws IOException, InterruptedException {
		return http.send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(60))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
	}

	/** What the instance has printed so far, line by line. */
	List<String> outputLines() throws IOException {
		return Files.readAllLines(this.log);
	}

	boolean isAlive() {
		return this.process.isAlive();
	}

	/** {@code kill -9}: the JVM gets no chance to close its session or release leadership. */
	void kill() throws InterruptedException {
		this.process.toHandle().destroyForcibly();
		if (!this.process.waitFor(30, TimeUnit.SECONDS)) {
			throw new IllegalStateException("instance " + this.name + " did not die");
		}
	}

	/** SIGTERM: Spring closes the context, so the leader hands over. */
	void stop() throws InterruptedException {
		this.process.toHandle().destroy();
		if (!this.process.waitFor(30, TimeUnit.SECONDS)) {
			this.process.toHandle().destroyForcibly();
		}
	}

	@Override
	public String toString() {
		return this.name + "(:" + this.port + ")";
	}

}
