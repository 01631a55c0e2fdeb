package dev.zkspring.leader;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The ZooKeeper-side confirmation a latch's leadership needs before the election acts on it. */
class LatchSeatIntegrationTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	private static final LeaderLatchListener NO_LISTENER = new LeaderLatchListener() {

		@Override
		public void isLeader() {
		}

		@Override
		public void notLeader() {
		}

	};

	@Test
	void claimWritesTheParticipantIdAndReturnsTheZxidOfThatWriteAsEpoch() throws Exception {
		CuratorFramework observer = zk.newClient();
		try (LatchSeat seat = new LatchSeat(zk.newClient(), "/leader/seat-claim", "a", NO_LISTENER)) {
			seat.start();
			await().atMost(Duration.ofSeconds(5)).until(seat::latchLeads);
			LatchSeat.Claim first = seat.claim();
			LatchSeat.Claim second = seat.claim();
			assertThat(first).isNotNull();
			assertThat(second).isNotNull();
			assertThat(second.epoch()).isGreaterThan(first.epoch());
			assertThat(observer.checkExists().forPath("/leader/seat-claim").getMzxid()).isEqualTo(second.epoch());
			assertThat(new String(observer.getData().forPath("/leader/seat-claim"), StandardCharsets.UTF_8))
				.isEqualTo("a");
			assertThat(second.abruptPredecessor()).isNull();
		}
	}

	@Test
	void claimIsRefusedWhenTheLatchStillBelievesItLeadsButItsNodeIsGone() throws Exception {
		CuratorFramework operator = zk.newClient();
		try (LatchSeat seat = new LatchSeat(zk.newClient(), "/leader/seat-gone", "a", NO_LISTENER)) {
			seat.start();
			await().atMost(Duration.ofSeconds(5)).until(seat::latchLeads);
			for (String node : operator.getChildren().forPath("/leader/seat-gone")) {
				operator.delete().forPath("/leader/seat-gone/" + node);
			}
			assertThat(seat.latchLeads()).isTrue();
			assertThat(seat.claim()).isNull();
		}
	}

	@Test
	void claimNamesAPredecessorThatDidNotReleaseGracefully() throws Exception {
		CuratorFramework operator = zk.newClient();
		operator.create().creatingParentsIfNeeded().forPath("/leader/seat-abrupt", "crashed".getBytes(StandardCharsets.UTF_8));
		try (LatchSeat seat = new LatchSeat(zk.newClient(), "/leader/seat-abrupt", "a", NO_LISTENER)) {
			seat.start();
			await().atMost(Duration.ofSeconds(5)).until(seat::latchLeads);
			LatchSeat.Claim claim = seat.claim();
			assertThat(claim).isNotNull();
			assertThat(claim.abruptPredecessor()).isEqualTo("crashed");
			seat.markReleased(claim.version());
			assertThat(operator.getData().forPath("/leader/seat-abrupt")).isEmpty();
			assertThat(seat.claim().abruptPredecessor()).isNull();
		}
	}

}
