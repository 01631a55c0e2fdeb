package dev.zkspring.reliability;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The report's leadership section: the totals over all groups, then a row per group. */
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

}
