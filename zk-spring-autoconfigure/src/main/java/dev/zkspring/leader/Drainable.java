package dev.zkspring.leader;

import java.time.Duration;

/**
 * A {@link LeadershipListener} with work in flight that must end before this instance hands its latch
 * node over, so the successor's first run cannot overlap it.
 */
interface Drainable {

	/**
	 * Wait until the work started as leader has finished, or the timeout has passed.
	 * @param timeout the longest wait
	 * @return whether everything finished in time
	 */
	boolean awaitDrained(Duration timeout);

}
