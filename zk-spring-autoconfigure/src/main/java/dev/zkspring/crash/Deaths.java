package dev.zkspring.crash;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;

import dev.zkspring.crash.SessionCard.Card;

/**
 * What the detector does with a death: end the dead session, count it, and say so in one INFO line that
 * names the dead instance, its session and the nodes this instance waited behind (never any value).
 */
final class Deaths {

	private static final Log logger = LogFactory.getLog(CrashDetector.class);

	private final CuratorFramework client;

	final AtomicLong detected = new AtomicLong();

	final AtomicLong ended = new AtomicLong();

	Deaths(CuratorFramework client) {
		this.client = client;
	}

	void act(Card card, List<String> released, long closedAtNanos) {
		this.detected.incrementAndGet();
		long detectedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - closedAtNanos);
		String session = "0x" + Long.toHexString(card.session());
		SessionEnder.Outcome outcome;
		try {
			int timeout = this.client.getZookeeperClient().getZooKeeper().getSessionTimeout();
			outcome = new SessionEnder(this.client, timeout).end(card.session(), card.password(), Math.max(timeout, 1_000));
		}
		catch (Exception ex) {
			logger.warn("Instance " + card.describe() + " died, and ending its session " + session + " failed: " + ex
					+ "; its nodes go when the session expires");
			return;
		}
		if (outcome == SessionEnder.Outcome.ENDED) {
			this.ended.incrementAndGet();
		}
		logger.info("Instance " + card.describe() + " died (connection closed, reconnects refused for " + detectedMs
				+ " ms); " + switch (outcome) {
					case ENDED -> "ended its session " + session + ", releasing " + released;
					case GONE -> "its session " + session + " had ended already";
					case UNREACHABLE -> "ZooKeeper was not reachable to end its session " + session
							+ "; its nodes go when it expires";
				});
	}

}
