package dev.zkspring.reliability;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The report's sections: leadership totals then a row per group; the convergence row. */
class ReportTests {

	@Test
	void leadershipSectionListsEachGroupWithItsLeadersHandoversRunsAndViolations() {
		Campaign.Injected fault = new Campaign.Injected(Fault.FREEZE_WORKLOAD, "w1", 1_450_000_000L, 1, Set.of("alpha"));
		LeaderChecker checker = new LeaderChecker(
				Journals.cleanWithThreeGroups().at(1, 3000, "JS alpha 10 3000 alphaTick").history(), List.of(fault));
		String section = Report.leadership(checker);
		assertThat(section).contains("| 9 | 4 (0) | 4 | 1 | 1 | 150 ms / 150 ms / 150 ms (n=1) |\n")
			.contains("| alpha | w1, w3 | 2 | 1 | 4 | 2 | 1 | 1 | 150 ms / 150 ms / 150 ms (n=1) |\n")
			.contains("| beta | w2 | 1 | 0 | 3 | 1 | 0 | 0 | n/a |\n")
			.contains("| default | w1 | 1 | 0 | 2 | 1 | 0 | 0 | n/a |\n");
	}

	@Test
	void failoversAreSplitByCauseAndShardsHaveARowPerJob() {
		Campaign.Injected freeze = new Campaign.Injected(Fault.FREEZE_WORKLOAD, "w1", 1_450_000_000L, 1, Set.of("alpha"));
		LeaderChecker leaders = new LeaderChecker(Journals.cleanWithThreeGroups().history(), List.of(freeze));
		assertThat(Report.failovers(leaders, new int[] { 3, 3 }))
			.contains("crash detection ran in 3 of 3 workload lives")
			.contains("| `kill -9` of its JVM (crash detection) | n/a | n/a |\n")
			.contains("| freeze, partition, expiry (waits for the session) | 150 ms / 150 ms / 150 ms (n=1) | 0.05× |\n");
		ShardChecker shards = new ShardChecker(ShardCheckerTests.clean().history(), List.of(), Long.MAX_VALUE);
		assertThat(Report.shards(shards)).contains("| recoverTick | 2 | 8 | 1 | 1 | 0 |\n")
			.contains("| shardTick | 2 | 7 | 0 | 0 | 1 |\n")
			.contains("Shard violations (each (job, fire time, shard) at most once, fenced; once when recovery is requested): 0.");
	}

	@Test
	void convergenceRowGivesBurstsPointsChecksSkippedViolationsAndDelays() {
		Journals journals = new Journals().at(1, 10, "C 1 1").at(1, 11, "READY").at(1, 1030, "C 5 5")
			.at(2, 10, "C 1 1").at(2, 11, "READY");
		ConvergenceChecker checker = new ConvergenceChecker(journals.history(), List.of(1, 2),
				List.of(new ConvergePoint(5, 1_000_000_000L, "a burst")), List.of(), List.of());
		assertThat(Report.convergence(checker, List.of(4, 31, 1)))
			.contains("| 3 (31) | 1 | 2 | 0 | 1 | 30 ms / 30 ms / 30 ms (n=1) |\n");
	}

}
