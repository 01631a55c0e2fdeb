package dev.zkspring.reliability;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The leadership checker on doctored journals: each check fails on a history that breaks it in one
 * group while the other groups stay clean, and no check fails on a clean history in which different
 * groups lead and run at the same time.
 */
class LeaderCheckerTests {

	@Test
	void groupsThatLeadAndRunAtTheSameTimeAreNoViolation() {
		LeaderChecker checker = check(Journals.cleanWithThreeGroups());
		assertThat(checker.violations).isEmpty();
		assertThat(checker.groups).containsOnlyKeys("alpha", "beta", "default");
		GroupTally alpha = checker.groups.get("alpha");
		assertThat(alpha.leadersSeen()).isEqualTo("w1, w3");
		assertThat(alpha.grants).isEqualTo(2);
		assertThat(alpha.handovers).isEqualTo(1);
		assertThat(alpha.jobRuns).isEqualTo(3);
		assertThat(alpha.leaderOnlyCalls).isEqualTo(2);
		assertThat(alpha.inFlight).isEqualTo(1);
		GroupTally beta = checker.groups.get("beta");
		assertThat(beta.leadersSeen()).isEqualTo("w2");
		assertThat(beta.handovers).isZero();
		assertThat(beta.jobRuns).isEqualTo(3);
		assertThat(beta.inFlight).isZero();
		assertThat(checker.groups.get("default").jobRuns).isEqualTo(2);
		assertThat(checker.total((g) -> g.jobRuns)).isEqualTo(8);
	}

	@Test
	void newRunByADeposedLeaderOfOneGroupIsAViolationOfThatGroupOnly() {
		LeaderChecker checker = check(Journals.cleanWithThreeGroups().at(1, 3000, "JS alpha 10 3000 alphaTick"));
		assertThat(checker.violations).singleElement()
			.asString()
			.startsWith("group alpha: job run started by w1 with epoch 10 after w3 was granted epoch 30");
		assertOnlyAlphaViolated(checker);
	}

	@Test
	void newLeaderOnlyCallByADeposedLeaderIsAViolation() {
		LeaderChecker checker = check(Journals.cleanWithThreeGroups().at(1, 3000, "OS alpha 10"));
		assertThat(checker.violations).singleElement()
			.asString()
			.startsWith("group alpha: @LeaderOnly call started by w1 with epoch 10 after w3 was granted epoch 30");
	}

	@Test
	void fireTimeRunTwiceInOneGroupIsAViolation() {
		LeaderChecker checker = check(Journals.cleanWithThreeGroups().at(3, 2500, "JS alpha 30 1000 alphaTick"));
		assertThat(checker.violations).singleElement()
			.asString()
			.isEqualTo("group alpha: fire time 1000 of job alphaTick ran twice: by w1 (epoch 10) and w3 (epoch 30)");
		assertOnlyAlphaViolated(checker);
	}

	@Test
	void epochGoingBackAfterAHigherLeadershipEndedIsAViolation() {
		LeaderChecker checker = check(
				Journals.cleanWithThreeGroups().at(3, 2600, "R alpha 30 SESSION_EXPIRED").at(1, 2700, "G alpha 25"));
		assertThat(checker.violations).singleElement()
			.asString()
			.isEqualTo("group alpha: epoch went back: w1 was granted epoch 25 after the leadership of w3 with epoch 30 had ended");
		assertOnlyAlphaViolated(checker);
	}

	@Test
	void epochGoingBackOnOneInstanceIsAViolation() {
		LeaderChecker checker = check(Journals.cleanWithThreeGroups().at(3, 2600, "G alpha 28"));
		assertThat(checker.violations).singleElement()
			.asString()
			.isEqualTo("group alpha: epoch went back: w3 was granted epoch 28 after its own earlier grant of epoch 30");
	}

	@Test
	void oneEpochGrantedToTwoInstancesIsAViolation() {
		LeaderChecker checker = check(Journals.cleanWithThreeGroups().at(2, 1700, "G alpha 30"));
		assertThat(checker.violations).singleElement()
			.asString()
			.isEqualTo("group alpha: epoch 30 granted to w3 and to w2");
	}

	@Test
	void grantJournaledLateByAFrozenLeaderWhileItsSuccessorLeadsIsNoViolation() {
		// w2 took alpha with epoch 25 before w3's 30 but was frozen before it could journal the grant
		LeaderChecker checker = check(Journals.cleanWithThreeGroups().at(2, 2300, "G alpha 25")
			.at(2, 2310, "R alpha 25 SESSION_EXPIRED"));
		assertThat(checker.violations).isEmpty();
	}

	@Test
	void runUnderAnEpochOfAnotherGroupIsAViolation() {
		LeaderChecker checker = check(Journals.cleanWithThreeGroups().at(2, 3000, "JS beta 10 3000 betaTick"));
		assertThat(checker.violations).singleElement()
			.asString()
			.isEqualTo("group beta: job run on w2 under epoch 10, which was granted in group alpha");
	}

	@Test
	void jobRunWithoutLeadershipIsAViolation() {
		LeaderChecker checker = check(Journals.cleanWithThreeGroups().at(2, 3000, "JS alpha 0 3000 alphaTick"));
		assertThat(checker.violations).singleElement().asString().isEqualTo("group alpha: job run without leadership on w2");
	}

	@Test
	void failoverIsMeasuredPerGroupTheFaultTookAway() {
		Campaign.Injected fault = new Campaign.Injected(Fault.FREEZE_WORKLOAD, "w1", 1_450_000_000L, 1, Set.of("alpha"));
		LeaderChecker checker = new LeaderChecker(Journals.cleanWithThreeGroups().history(), List.of(fault));
		assertThat(checker.failoverNanos).containsExactly(150_000_000L);
		assertThat(checker.groups.get("alpha").failoverNanos).containsExactly(150_000_000L);
		assertThat(checker.groups.get("default").failoverNanos).isEmpty();
	}

	private static LeaderChecker check(Journals journals) {
		return new LeaderChecker(journals.history(), List.of());
	}

	private static void assertOnlyAlphaViolated(LeaderChecker checker) {
		assertThat(checker.groups.get("alpha").violations).isEqualTo(1);
		assertThat(checker.groups.get("beta").violations).isZero();
		assertThat(checker.groups.get("default").violations).isZero();
	}

}
