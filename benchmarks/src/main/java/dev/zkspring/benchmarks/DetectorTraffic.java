package dev.zkspring.benchmarks;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Crash detection's TCP connections among the scale run's instances, counted by the kernel: every
 * established socket whose local port is one of the instances' detector listeners (so each connection
 * once, on the side that accepted it), with its bytes and segments both ways from {@code ss -tin}, read
 * before and after the idle window. Linux only; elsewhere the figures are NaN.
 */
final class DetectorTraffic {

	private static final Pattern SOCKET = Pattern.compile("^\\S+\\s+\\S+\\s+(\\S+):(\\d+)\\s+(\\S+):(\\d+)");

	private final Set<Integer> ports;

	private final Map<String, long[]> before;

	private final long start;

	private DetectorTraffic(Set<Integer> ports, Map<String, long[]> before) {
		this.ports = ports;
		this.before = before;
		this.start = System.nanoTime();
	}

	/** The instances' listener ports, and their sockets' counters now. */
	static DetectorTraffic of(List<ScaleInstance> instances) {
		Set<Integer> ports = new HashSet<>();
		for (ScaleInstance instance : instances) {
			Object address = instance.detector().describe().get("address");
			if (address instanceof String text && text.lastIndexOf(':') > 0) {
				ports.add(Integer.valueOf(text.substring(text.lastIndexOf(':') + 1)));
			}
		}
		return new DetectorTraffic(ports, sockets(ports));
	}

	/** Per instance over the window since {@link #of}: connections, bytes/s and segments/s, both ways. */
	AtRest atRest(List<ScaleInstance> instances) {
		Map<String, long[]> after = sockets(this.ports);
		double seconds = (System.nanoTime() - this.start) / 1e9;
		if (after == null || this.before == null) {
			return new AtRest(Double.NaN, Double.NaN, Double.NaN, Double.NaN);
		}
		long bytes = 0;
		long segments = 0;
		for (Map.Entry<String, long[]> socket : after.entrySet()) {
			long[] was = this.before.getOrDefault(socket.getKey(), new long[2]);
			bytes += socket.getValue()[0] - was[0];
			segments += socket.getValue()[1] - was[1];
		}
		int watching = 0;
		for (ScaleInstance instance : instances) {
			if (instance.detector().describe().get("watching") instanceof List<?> links) {
				watching += links.size();
			}
		}
		int n = instances.size();
		return new AtRest(after.size() / (double) n, watching / (double) n, bytes / seconds / n, segments / seconds / n);
	}

	/** Established sockets on the given local ports: {bytes sent + received, segments out + in} by socket, or null. */
	private static Map<String, long[]> sockets(Set<Integer> ports) {
		try {
			Process ss = new ProcessBuilder("ss", "-tinH", "state", "established").redirectErrorStream(true).start();
			Map<String, long[]> found = new HashMap<>();
			try (BufferedReader out = new BufferedReader(new InputStreamReader(ss.getInputStream(), StandardCharsets.UTF_8))) {
				String key = null;
				String line;
				while ((line = out.readLine()) != null) {
					Matcher socket = SOCKET.matcher(line);
					if (!line.startsWith("\t") && !line.startsWith(" ") && socket.find()) {
						key = ports.contains(Integer.valueOf(socket.group(2)))
								? socket.group(1) + ":" + socket.group(2) + " " + socket.group(3) + ":" + socket.group(4) : null;
						if (key != null) {
							found.put(key, new long[2]);
						}
					}
					else if (key != null) {
						found.get(key)[0] = counter(line, "bytes_sent") + counter(line, "bytes_received");
						found.get(key)[1] = counter(line, "segs_out") + counter(line, "segs_in");
						key = null;
					}
				}
			}
			return ss.waitFor(10, TimeUnit.SECONDS) && ss.exitValue() == 0 ? found : null;
		}
		catch (Exception ex) {
			return null;
		}
	}

	private static long counter(String line, String name) {
		Matcher value = Pattern.compile("\\b" + name + ":(\\d+)").matcher(line);
		return value.find() ? Long.parseLong(value.group(1)) : 0;
	}

	/**
	 * Crash detection at rest, per instance.
	 * @param connections established detector connections counted by the kernel
	 * @param watching links the detectors report (each one such connection, from the watcher's side)
	 * @param bytesPerSecond bytes on those connections, both ways
	 * @param segmentsPerSecond TCP segments on them, both ways (keep-alives and ACKs included)
	 */
	record AtRest(double connections, double watching, double bytesPerSecond, double segmentsPerSecond) {
	}

}
