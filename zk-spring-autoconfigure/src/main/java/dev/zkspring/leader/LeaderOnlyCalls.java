package dev.zkspring.leader;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.zkspring.leader.term.Drainable;

/**
 * The {@link LeaderOnly} calls in flight on this instance, so a stopping leader drains them before it
 * hands over. A call counts itself in before it checks leadership and a revocation clears leadership
 * before it drains: either the call sees the revocation and skips, or the drain sees the call and waits.
 */
final class LeaderOnlyCalls implements LeadershipListener, Drainable {

	private static final Log logger = LogFactory.getLog(LeaderOnlyCalls.class);

	private final ZkLeaderElection election;

	private final AtomicInteger inFlight = new AtomicInteger();

	LeaderOnlyCalls(ZkLeaderElection election) {
		this.election = election;
	}

	/** Whether the call may run; when true, {@link #exit()} must follow. */
	boolean enter() {
		this.inFlight.incrementAndGet();
		if (this.election.isLeader()) {
			return true;
		}
		this.inFlight.decrementAndGet();
		return false;
	}

	void exit() {
		this.inFlight.decrementAndGet();
	}

	@Override
	public boolean awaitDrained(Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (this.inFlight.get() > 0 && deadline - System.nanoTime() > 0) {
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
		}
		int left = this.inFlight.get();
		if (left > 0) {
			logger.warn(left + " @LeaderOnly call(s) still running after " + timeout + " at "
					+ this.election.latchPath());
			return false;
		}
		return true;
	}

	@Override
	public void leadershipGranted(LeadershipGrantedEvent event) {
	}

	@Override
	public void leadershipRevoked(LeadershipRevokedEvent event) {
	}

}
