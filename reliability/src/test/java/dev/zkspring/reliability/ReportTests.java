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
	void convergenceRowGivesBurstsPointsChecksSkippedViolationsAndDelays() {
		Journals journals = new Journals().at(1, 10, "C 1 1").at(1, 11, "READY").at(1, 1030, "C 5 5")
			.at(2, 10, "C 1 1").at(2, 11, "READY");
		ConvergenceChecker checker = new ConvergenceChecker(journals.history(), List.of(1, 2),
				List.of(new ConvergePoint(5, 1_000_000_000L, "a burst")), List.of(), List.of());
		assertThat(Report.convergence(checker, List.of(4, 31, 1)))
			.contains("| 3 (31) | 1 | 2 | 0 | 1 | 30 ms / 30 ms / 30 ms (n=1) |\n");
	}

}
