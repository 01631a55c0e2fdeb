package dev.zkspring.crash;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * How the crash detector listens and judges, from {@code zk.crash-detection.*}, so the detector does not
 * depend on the auto-configuration's properties type.
 * @param root the parent of the session cards, such as {@code /crash}
 * @param address the address to listen on and to publish; {@code null} to listen on every interface and
 * publish the one this host reaches ZooKeeper from
 * @param port the port to listen on, 0 for any free one
 * @param reconnectTimeout how long every reconnect must be refused before a closed connection counts as a death
 * @param restricted whether the application has credentials, so its cards are creator-only
 */
public record CrashDetectionSettings(String root, @Nullable String address, int port, Duration reconnectTimeout,
		boolean restricted) {

	/** Defaults for tests and programmatic use: any free port, a 100 ms reconnect bound. */
	public static CrashDetectionSettings defaults(boolean restricted) {
		return new CrashDetectionSettings("/crash", null, 0, Duration.ofMillis(100), restricted);
	}

}
