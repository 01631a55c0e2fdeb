package dev.zkspring.leader;

import org.jspecify.annotations.Nullable;

import dev.zkspring.leader.term.LeaderRecords;
import dev.zkspring.leader.term.Term;

/**
 * For the tests of the parts above the election (Quartz gate, jobs, groups): what the election hands those
 * parts and keeps from applications, the package-private seams ({@code JobsAccess} has the job operations').
 */
public final class LeaderInternals {

	private LeaderInternals() {
	}

	/** The records the election keeps in ZooKeeper, with their test hooks. */
	public static LeaderRecords records(ZkLeaderElection election) {
		return election.records();
	}

	/** Hand leadership over gracefully and stay in the election; false when not leading or already doing so. */
	public static boolean stepBack(ZkLeaderElection election) {
		return election.stepBack();
	}

	/** Run a task on the election's leadership thread, after what is queued there. */
	public static void inOrder(ZkLeaderElection election, Runnable task) {
		election.inOrder(task);
	}

	/** The term granted now, whether or not its lease is valid now; {@code null} while none. */
	public static @Nullable Term term(ZkLeaderElection election) {
		return election.term();
	}

}
