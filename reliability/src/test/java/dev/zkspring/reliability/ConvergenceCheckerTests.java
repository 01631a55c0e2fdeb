package dev.zkspring.reliability;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The convergence check on doctored journals: a burst of versions 2 to 5 ends at 1000 ms, and two
 * instances that were up and ready since 10 ms show version 1 before it. An instance that stays one
 * version behind is a violation; one the campaign froze or killed during the bound is not, and is checked
 * again at the heal.
 */
class ConvergenceCheckerTests {

	private static final ConvergePoint BURST = new ConvergePoint(5, ms(1000), "a burst of 4 good documents");

	@Test
	void instanceThatStaysOneVersionBehindAfterABurstIsAViolation() {
		Journals journals = twoReadyOnVersionOne().at(1, 1030, "C 5 5").at(2, 1010, "C 3 3").at(2, 1020, "C 4 4");
		ConvergenceChecker checker = check(journals, List.of(BURST), List.of());
		assertThat(checker.violations).singleElement()
			.asString()
			.isEqualTo("w2 did not converge after a burst of 4 good documents: still on version 4 5000 ms after the node"
					+ " got version 5 (it never showed it in that process life)");
		assertThat(checker.checked).isEqualTo(2);
		assertThat(checker.delayNanos).containsExactly(ms(30));
	}

	@Test
	void instanceThatShowsTheLastVersionOnlyAfterTheBoundIsAViolationNamingTheDelay() {
		Journals journals = twoReadyOnVersionOne().at(1, 1030, "C 5 5").at(2, 1020, "C 4 4").at(2, 7345, "C 5 5");
		ConvergenceChecker checker = check(journals, List.of(BURST), List.of());
		assertThat(checker.violations).singleElement()
			.asString()
			.isEqualTo("w2 did not converge after a burst of 4 good documents: still on version 4 5000 ms after the node"
					+ " got version 5 (it showed 5 after 6345 ms)");
	}

	@Test
	void instancesThatShowTheLastVersionWithinTheBoundAreNoViolation() {
		Journals journals = twoReadyOnVersionOne().at(1, 1030, "C 5 5").at(2, 5900, "C 5 5");
		ConvergenceChecker checker = check(journals, List.of(BURST), List.of());
		assertThat(checker.violations).isEmpty();
		assertThat(checker.checked).isEqualTo(2);
		assertThat(checker.delayNanos).containsExactly(ms(30), ms(4900));
	}

	@Test
	void instanceThatMissedTheLastWriteOfABurstIsAViolationEvenWhenTheNextWriteBringsItUpToDate() {
		// the next write (version 6) is sent at 2500 ms: w2 shows 6 at 2510 ms, but never showed 5
		Journals journals = twoReadyOnVersionOne().at(1, 1030, "C 5 5").at(2, 1020, "C 4 4")
			.at(1, 2505, "C 6 6")
			.at(2, 2510, "C 6 6");
		ConvergenceChecker checker = check(journals, List.of(BURST), List.of(), List.of(ms(990), ms(2500)));
		assertThat(checker.violations).singleElement()
			.asString()
			.isEqualTo("w2 did not converge after a burst of 4 good documents: still on version 4 when the node changed"
					+ " again 1500 ms after it got version 5 (it showed 6 after 1510 ms)");
	}

	@Test
	void instanceFrozenDuringTheBoundIsNotFlaggedAndIsCheckedAgainAtTheThaw() {
		// w2 is frozen 500 ms after the burst, before it applied version 5, and thawed at 6000 ms
		Journals journals = twoReadyOnVersionOne().at(1, 1030, "C 5 5").at(2, 6400, "C 5 5");
		Outage freeze = new Outage(2, ms(1500), ms(6000), false);
		ConvergePoint thaw = new ConvergePoint(5, ms(6000), "the thaw of w2");
		ConvergenceChecker checker = check(journals, List.of(BURST, thaw), List.of(freeze));
		assertThat(checker.violations).isEmpty();
		assertThat(checker.skipped).isEqualTo(1);
		assertThat(checker.checked).isEqualTo(3);
		assertThat(checker.delayNanos).containsExactly(ms(30), 0L, ms(400));
	}

	@Test
	void instanceThatStaysBehindAfterTheThawIsAViolation() {
		Journals journals = twoReadyOnVersionOne().at(1, 1030, "C 5 5");
		Outage freeze = new Outage(2, ms(1500), ms(6000), false);
		ConvergePoint thaw = new ConvergePoint(5, ms(6000), "the thaw of w2");
		ConvergenceChecker checker = check(journals, List.of(BURST, thaw), List.of(freeze));
		assertThat(checker.violations).singleElement().asString().startsWith("w2 did not converge after the thaw of w2");
	}

	@Test
	void killedInstanceIsSkippedUntilItsNextLifeIsReadyThenChecked() {
		// w2 killed at 900 ms, restarted at 2000 ms, ready at 9000 ms with version 5, then behind at a later burst
		Journals journals = twoReadyOnVersionOne().at(1, 1030, "C 5 5")
			.at(2, 3000, "START 2")
			.at(2, 9000, "C 5 5")
			.at(2, 9001, "READY")
			.at(1, 10_010, "C 6 6");
		Outage kill = new Outage(2, ms(900), ms(2000), true);
		List<ConvergePoint> points = List.of(BURST, new ConvergePoint(5, ms(2000), "the restart of w2"),
				new ConvergePoint(6, ms(10_000), "a write after fault 2"));
		ConvergenceChecker checker = check(journals, points, List.of(kill));
		assertThat(checker.skipped).isEqualTo(2);
		assertThat(checker.violations).singleElement()
			.asString()
			.isEqualTo("w2 did not converge after a write after fault 2: still on version 5 5000 ms after the node"
					+ " got version 6 (it never showed it in that process life)");
	}

	@Test
	void instanceIsAwayFromItsFaultUntilItsHealOrAfterAKillItsNextReady() {
		Journals journals = twoReadyOnVersionOne().at(2, 3000, "START 2").at(2, 9001, "READY");
		ConvergenceChecker checker = check(journals, List.of(),
				List.of(new Outage(1, ms(1500), ms(6000), false), new Outage(2, ms(900), ms(2000), true)));
		assertThat(checker.away(1, ms(1499))).isFalse();
		assertThat(checker.away(1, ms(1500))).isTrue();
		assertThat(checker.away(1, ms(6000))).isFalse();
		assertThat(checker.away(2, ms(5000))).isTrue();
		assertThat(checker.away(2, ms(9001))).isFalse();
	}

	private static Journals twoReadyOnVersionOne() {
		return new Journals().at(1, 10, "C 1 1").at(1, 11, "READY").at(2, 10, "C 1 1").at(2, 11, "READY");
	}

	private static ConvergenceChecker check(Journals journals, List<ConvergePoint> points, List<Outage> outages) {
		return check(journals, points, outages, List.of());
	}

	private static ConvergenceChecker check(Journals journals, List<ConvergePoint> points, List<Outage> outages,
			List<Long> writeNanos) {
		return new ConvergenceChecker(journals.history(), List.of(1, 2), points, outages, writeNanos);
	}

	private static long ms(long millis) {
		return millis * 1_000_000;
	}

}
