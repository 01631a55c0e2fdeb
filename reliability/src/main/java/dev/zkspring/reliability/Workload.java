package dev.zkspring.reliability;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * One workload JVM as the campaign drives it: started with its own three {@link Link}s as
 * {@code zk.connect}, killed, frozen, partitioned, restarted; its journal is read from its file.
 */
final class Workload implements AutoCloseable {

	final int instance;

	private final Path dir;

	private final List<Link> links = new ArrayList<>();

	private Process process;

	private boolean frozen;

	Workload(int instance, Path dir, Ensemble ensemble) throws IOException {
		this.instance = instance;
		this.dir = dir;
		for (int server = 0; server < 3; server++) {
			this.links.add(new Link(ensemble.clientPort(server)));
		}
	}

	void start() {
		String connect = this.links.stream().map((link) -> "127.0.0.1:" + link.port()).collect(Collectors.joining(","));
		this.process = Processes.startJava(this.dir.resolve("workload-" + this.instance + ".out"),
				List.of("-Xmx192m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xss512k"),
				"dev.zkspring.reliability.workload.WorkloadApplication",
				List.of("--zk.connect=" + connect, "--reliability.dir=" + this.dir,
						"--reliability.instance=" + this.instance, "--zk.leader.id=w" + this.instance));
	}

	boolean isAlive() {
		return this.process != null && this.process.isAlive();
	}

	void kill9() {
		Processes.kill9(this.process);
	}

	void freeze() {
		Processes.signal(this.process, "STOP");
		this.frozen = true;
	}

	void thaw() {
		Processes.signal(this.process, "CONT");
		this.frozen = false;
	}

	void cut() {
		this.links.forEach(Link::cut);
	}

	void heal() {
		this.links.forEach(Link::heal);
	}

	/** The journal's lines so far. */
	List<String> journal() {
		Path file = this.dir.resolve("journal-" + this.instance + ".log");
		try {
			return Files.exists(file) ? Files.readAllLines(file, StandardCharsets.UTF_8) : List.of();
		}
		catch (IOException ex) {
			throw new java.io.UncheckedIOException(ex);
		}
	}

	/** Whether the latest process life has reported READY. */
	boolean isReady() {
		List<String> lines = journal();
		for (int i = lines.size() - 1; i >= 0; i--) {
			String line = lines.get(i);
			if (line.contains(" READY")) {
				return true;
			}
			if (line.contains(" START ")) {
				return false;
			}
		}
		return false;
	}

	/** The session id and password (hex) this instance last wrote, or null. */
	String[] session() {
		Path file = this.dir.resolve("session-" + this.instance + ".txt");
		try {
			return Files.exists(file) ? Files.readString(file, StandardCharsets.US_ASCII).trim().split(" ") : null;
		}
		catch (IOException ex) {
			return null;
		}
	}

	/** Stop gracefully (SIGTERM: Spring's shutdown runs), then make sure it is gone. */
	void stop() {
		if (this.process == null) {
			return;
		}
		if (this.frozen) {
			thaw();
		}
		this.process.destroy();
		try {
			if (!this.process.waitFor(20, TimeUnit.SECONDS)) {
				kill9();
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Override
	public void close() {
		if (this.process != null && this.process.isAlive()) {
			if (this.frozen) {
				thaw();
			}
			kill9();
		}
		this.links.forEach(Link::close);
	}

}
