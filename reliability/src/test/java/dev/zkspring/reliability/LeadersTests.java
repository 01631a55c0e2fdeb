package dev.zkspring.reliability;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The campaign's view of who leads each group now, from the live journals. */
class LeadersTests {

	@Test
	void eachGroupIsLedByTheInstanceWhoseLatestLineForItIsAGrant() {
		assertThat(Leaders.current(Journals.cleanWithThreeGroups().lines()))
			.containsExactlyInAnyOrderEntriesOf(java.util.Map.of("default", 1, "alpha", 3, "beta", 2));
	}

	@Test
	void aRestartedInstanceLeadsNothingUntilGrantedAgain() {
		Journals journals = Journals.cleanWithThreeGroups();
		journals.lines().get(2).add("3000000000 3000 START 2");
		assertThat(Leaders.current(journals.lines())).doesNotContainKey("beta");
	}

	@Test
	void aDeposedLeaderThatHasNotHeardLosesToTheHigherEpoch() {
		Journals journals = Journals.cleanWithThreeGroups().at(2, 3000, "G alpha 40");
		assertThat(Leaders.current(journals.lines())).containsEntry("alpha", 2);
	}

}
