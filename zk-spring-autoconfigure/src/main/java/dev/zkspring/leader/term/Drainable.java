package dev.zkspring.leader.term;

import java.time.Duration;

/**
 * A {@code LeadershipListener} with work in flight that must end before this instance hands its latch
 * node over, so the successor's first run cannot overlap it.
 */
public interface Drainable {

	/**
	 * Wait until the work started as leader has finished, or the timeout has passed.
	 * @param timeout the longest wait
	 * @return whether everything finished in time
	 */
	boolean awaitDrained(Duration timeout);

}
