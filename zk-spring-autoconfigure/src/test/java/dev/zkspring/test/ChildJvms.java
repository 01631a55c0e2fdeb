package dev.zkspring.test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/** For tests that run parts in JVMs of their own (freezes with SIGSTOP, kill -9): readiness and signals. */
public final class ChildJvms {

	private ChildJvms() {
	}

	/**
	 * Wait for the child's {@code READY <n>} line, then keep draining its output so its pipe never fills.
	 * @param what what the child is, for the error when it ends first
	 * @return the number the child reported (the negotiated session timeout, in the tests' children)
	 */
	public static int awaitReady(Process process, String what) throws IOException {
		BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
		String line;
		while ((line = reader.readLine()) != null) {
			if (line.startsWith("READY ")) {
				Thread drain = new Thread(() -> {
					try {
						while (reader.readLine() != null) {
							// keep the child's output pipe from filling up
						}
					}
					catch (IOException ex) {
						// the process ended
					}
				});
				drain.setDaemon(true);
				drain.start();
				return Integer.parseInt(line.substring(6).trim());
			}
		}
		throw new IllegalStateException(what + " ended before it was ready");
	}

	/** Send a signal ({@code STOP}, {@code CONT}) to a child that is still alive. */
	public static void signal(Process process, String signal) throws Exception {
		if (process.isAlive()) {
			new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start().waitFor(5, TimeUnit.SECONDS);
		}
	}

}
