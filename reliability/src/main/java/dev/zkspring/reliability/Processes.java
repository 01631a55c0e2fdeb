package dev.zkspring.reliability;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Starting JVMs from the campaign's own class path, and the signals the faults send them. */
final class Processes {

	private Processes() {
	}

	/** The campaign's class path: its jar and the {@code lib/} beside it, or the IDE's class path. */
	static String classPath() {
		try {
			Path location = Path.of(Campaign.class.getProtectionDomain().getCodeSource().getLocation().toURI());
			if (Files.isRegularFile(location) && Files.isDirectory(location.resolveSibling("lib"))) {
				return location + File.pathSeparator + location.resolveSibling("lib") + File.separator + "*";
			}
		}
		catch (URISyntaxException ex) {
			throw new IllegalStateException(ex);
		}
		return System.getProperty("java.class.path");
	}

	static Process startJava(Path log, List<String> jvmArgs, String mainClass, List<String> args) {
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		command.addAll(jvmArgs);
		command.add("-cp");
		command.add(classPath());
		command.add(mainClass);
		command.addAll(args);
		try {
			return new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
				.start();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	static void signal(Process process, String signal) {
		try {
			Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start();
			kill.waitFor(10, TimeUnit.SECONDS);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	static void kill9(Process process) {
		process.destroyForcibly();
		try {
			process.waitFor(10, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	static int freePort() {
		try (ServerSocket socket = new ServerSocket(0)) {
			socket.setReuseAddress(true);
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	static void pause(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("campaign interrupted", ex);
		}
	}

}
