package dev.zkspring.reliability;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shard checker on doctored journals: each check fails on a history that breaks it, and a clean
 * history with a kill mid-run (re-run by recovery) and a lost owner's missed shard is no violation.
 */
class ShardCheckerTests {

	@Test
	void cleanHistoryWithARecoveredShardAndAMissedOneIsNoViolation() {
		ShardChecker checker = check(clean());
		assertThat(checker.violations).isEmpty();
		ShardChecker.Tally recovering = checker.jobs.get("recoverTick");
		assertThat(recovering.dispatched).isEqualTo(2);
		assertThat(recovering.runs).isEqualTo(8);
		assertThat(recovering.reruns).isEqualTo(1);
		assertThat(recovering.handovers).isEqualTo(1); // shard 0: w1 at 2000, re-run on w2 at 4000
		ShardChecker.Tally plain = checker.jobs.get("shardTick");
		assertThat(plain.dispatched).isEqualTo(2);
		assertThat(plain.runs).isEqualTo(7);
		assertThat(plain.missed).isEqualTo(1);
	}

	@Test
	void aShardRunTwiceIsAViolation() {
		ShardChecker checker = check(clean().at(3, 2300, "SS shardTick 2000 1 4 Shanghai false 5 0 p3 false p3"));
		assertThat(checker.violations).singleElement()
			.asString()
			.isEqualTo("shards: shard 1 of fire time 2000 of job shardTick ran twice: by w1 and w3 (279 ms later)");
	}

	@Test
	void aFireTimeDispatchedAgainUnderTheInstantQuartzFiredIsOneFireTime() {
		// a recovered dispatch named after the instant the lost leader's Quartz fired (2001), not the fire time
		ShardChecker checker = check(clean().at(3, 2300, "SS shardTick 2001 1 4 Shanghai false 5 0 p3 false p3"));
		assertThat(checker.violations).singleElement()
			.asString()
			.isEqualTo("shards: shard 1 of fire time 2000 of job shardTick ran twice: by w1 and w3 (279 ms later)");
	}

	@Test
	void aReRunAfterTheRunEndedOnALiveOwnerIsAViolation() {
		ShardChecker checker = check(clean().at(3, 2400, "SS recoverTick 2000 2 4 east true 20 1 p3 true p3"));
		assertThat(checker.violations).singleElement()
			.asString()
			.isEqualTo("shards: shard 2 of fire time 2000 of job recoverTick was re-run on w3 after its run on w2 had ended, "
					+ "on an owner never taken away nor disconnected");
	}

	@Test
	void aReRunWhileItsOwnerWasFrozenIsNoViolation() {
		Journals journals = clean().at(3, 2400, "SS recoverTick 2000 2 4 east true 20 1 p3 true p3");
		ShardChecker checker = new ShardChecker(journals.history(),
				List.of(new Outage(2, 2_050_000_000L, 2_300_000_000L, false)), Long.MAX_VALUE);
		assertThat(checker.violations).isEmpty();
	}

	@Test
	void aReRunAfterItsOwnerWasKilledJustAfterTheRunsEndLineIsNoViolation() {
		// w2 journaled the end of shard 2 at 2112 and was killed before the end reached the claim node
		Journals journals = clean().at(3, 2400, "SS recoverTick 2000 2 4 east true 20 1 p3 true p3");
		ShardChecker checker = new ShardChecker(journals.history(),
				List.of(new Outage(2, 2_115_000_000L, 5_000_000_000L, true)), Long.MAX_VALUE);
		assertThat(checker.violations).isEmpty();
		ShardChecker later = new ShardChecker(journals.history(),
				List.of(new Outage(2, 3_200_000_000L, 5_000_000_000L, true)), Long.MAX_VALUE);
		assertThat(later.violations).hasSize(1);
	}

	@Test
	void aReRunOfAJobThatDoesNotRequestRecoveryIsAViolation() {
		ShardChecker checker = check(clean().at(2, 4500, "SS shardTick 4000 0 4 Beijing true 5 1 p2 true p2"));
		assertThat(checker.violations).singleElement()
			.asString()
			.isEqualTo("shards: shard 0 of fire time 4000 of job shardTick was re-run on w2 though the job does not request recovery");
	}

	@Test
	void aDispatchedShardOfARecoveringJobThatNeverEndedIsAViolation() {
		Journals journals = new Journals().at(2, 1990, "SD beta 20 2000 recoverTick 2 true")
			.at(1, 2010, "SS recoverTick 2000 0 2 north false 20 0 p1 false p1")
			.at(2, 2011, "SS recoverTick 2000 1 2 south false 20 0 p2 false p2")
			.at(2, 2111, "SE recoverTick 2000 1 false")
			.at(1, 2050, "START 2");
		assertThat(check(journals).violations).singleElement()
			.asString()
			.isEqualTo("shards: shard 0 of fire time 2000 of job recoverTick (dispatched by w2, epoch 20) requests recovery "
					+ "and never ran to its end (its first run began on w1)");
	}

	@Test
	void aFireTimeDispatchedAfterTheSettlePointIsNotRequired() {
		Journals journals = new Journals().at(2, 1990, "SD beta 20 2000 recoverTick 2 true");
		assertThat(new ShardChecker(journals.history(), List.of(), 1_000_000_000L).violations).isEmpty();
		assertThat(new ShardChecker(journals.history(), List.of(), 2_000_000_000L).violations).hasSize(2);
	}

	@Test
	void aFirstRunOfAShardHandedOverBeforeItsClaimIsAViolation() {
		// the dispatch node names w3 the owner of shard 0 without a re-run flag: it was handed over before any claim
		ShardChecker checker = check(clean().at(1, 4600, "SS shardTick 4000 0 4 Beijing false 5 2 p3 false p1"));
		assertThat(checker.violations).singleElement()
			.asString()
			.startsWith("shards: shard 0 of fire time 4000 of job shardTick ran on w1 (p1) while its dispatch node (version 2) named p3");
	}

	@Test
	void aShardWithTwoParametersIsAViolation() {
		ShardChecker checker = check(clean().at(3, 4700, "SS shardTick 6000 3 4 Beijing false 5 0 p3 false p3"));
		assertThat(checker.violations).singleElement()
			.asString()
			.isEqualTo("shards: shard 3 of job shardTick ran with two parameters");
	}

	private static ShardChecker check(Journals journals) {
		return new ShardChecker(journals.history(), List.of(), Long.MAX_VALUE);
	}

	/**
	 * Two fire times (2000, 4000) of two 4-shard jobs: {@code recoverTick} (requests recovery, dispatched in
	 * beta, epoch 20) and {@code shardTick} (does not, own election, epoch 5). At 4000 w1 is killed while it
	 * runs shard 0 of recoverTick, which w2 re-runs; shard 0 of shardTick, also w1's, never starts (missed).
	 */
	static Journals clean() {
		Journals journals = new Journals().at(2, 1990, "SD beta 20 2000 recoverTick 4 true")
			.at(1, 1991, "SD default 5 2000 shardTick 4 false")
			.at(3, 1992, "CD true");
		String[] recoverParams = { "north", "south", "east", "west" };
		String[] plainParams = { "Beijing", "Shanghai", "Shenzhen", "Hangzhou" };
		int[] owners = { 1, 1, 2, 3 };
		for (int i = 0; i < 4; i++) {
			int w = owners[i];
			journals.at(w, 2010 + i, "SS recoverTick 2000 " + i + " 4 " + recoverParams[i] + " false 20 0 p" + w + " false p" + w)
				.at(w, 2020 + i, "SS shardTick 2000 " + i + " 4 " + plainParams[i] + " false 5 0 p" + w + " false p" + w)
				.at(w, 2110 + i, "SE recoverTick 2000 " + i + " false")
				.at(w, 2120 + i, "SE shardTick 2000 " + i + " false");
		}
		journals.at(2, 3990, "SD beta 20 4000 recoverTick 4 true").at(1, 3991, "SD default 5 4000 shardTick 4 false");
		for (int i = 1; i < 4; i++) {
			int w = owners[i];
			journals.at(w, 4010 + i, "SS recoverTick 4000 " + i + " 4 " + recoverParams[i] + " false 20 0 p" + w + " false p" + w)
				.at(w, 4020 + i, "SS shardTick 4000 " + i + " 4 " + plainParams[i] + " false 5 0 p" + w + " false p" + w)
				.at(w, 4110 + i, "SE recoverTick 4000 " + i + " false")
				.at(w, 4120 + i, "SE shardTick 4000 " + i + " false");
		}
		return journals.at(1, 4030, "SS recoverTick 4000 0 4 north false 20 0 p1 false p1")
			.at(1, 4040, "START 2")
			.at(2, 4500, "SS recoverTick 4000 0 4 north true 20 1 p2 true p2")
			.at(2, 4600, "SE recoverTick 4000 0 true");
	}

}
