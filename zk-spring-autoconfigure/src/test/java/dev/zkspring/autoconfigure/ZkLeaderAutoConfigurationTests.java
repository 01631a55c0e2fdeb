package dev.zkspring.autoconfigure;

import java.time.Duration;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.zkspring.client.ZkStartupException;
import dev.zkspring.leader.LeaderOnlyBeanPostProcessor;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.leader.ZkLeaderProperties;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class ZkLeaderAutoConfigurationTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class, ZkLeaderAutoConfiguration.class))
		// these tests are about the election itself: nothing here needs a leader (ZkLeaderNeededTests)
		.withPropertyValues(zk.connectProperty(), "zk.leader.enabled=true");

	@Test
	void electsInTheApplicationsGroupUnderTheDefaultRootWithHostAndProcessAsId() {
		this.contextRunner.withPropertyValues("spring.application.name=orders").run((context) -> {
			ZkLeaderElection election = context.getBean(ZkLeaderElection.class);
			assertThat(election.latchPath()).isEqualTo("/leader/orders");
			assertThat(election.participantId()).endsWith("#" + ProcessHandle.current().pid());
			await().atMost(Duration.ofSeconds(5)).until(election::isLeader);
			assertThat(election.leaderId()).contains(election.participantId());
			assertThat(context).hasSingleBean(LeaderOnlyBeanPostProcessor.class);
		});
	}

	@Test
	void usesRootGroupIdAndTimeoutsFromProperties() {
		this.contextRunner
			.withPropertyValues("spring.application.name=orders", "zk.leader.root=/elections", "zk.leader.group=billing",
					"zk.leader.id=node-1", "zk.leader.drain-timeout=7s", "zk.leader.takeover-delay=3s")
			.run((context) -> {
				ZkLeaderElection election = context.getBean(ZkLeaderElection.class);
				assertThat(election.latchPath()).isEqualTo("/elections/billing");
				assertThat(election.participantId()).isEqualTo("node-1");
				ZkLeaderProperties leader = context.getBean(ZkLeaderProperties.class);
				assertThat(leader.getDrainTimeout()).isEqualTo(Duration.ofSeconds(7));
				assertThat(leader.getTakeoverDelay()).isEqualTo(Duration.ofSeconds(3));
			});
	}

	@Test
	void failsNamingBothPropertiesWhenNoGroupCanBeDetermined() {
		this.contextRunner.run((context) -> {
			ZkStartupException failure = startupFailure(context.getStartupFailure());
			assertThat(failure.getDescription()).contains("zk.leader.group").contains("spring.application.name");
			assertThat(failure.getAction()).contains("zk.leader.enabled=false");
		});
	}

	@Test
	void rejectsAGroupThatIsNotASingleNodeName() {
		this.contextRunner.withPropertyValues("zk.leader.group=orders/eu").run((context) -> {
			ZkStartupException failure = startupFailure(context.getStartupFailure());
			assertThat(failure.getDescription()).contains("zk.leader.group");
		});
	}

	@Test
	void rejectsARootThatIsNotAnAbsolutePath() {
		this.contextRunner.withPropertyValues("spring.application.name=orders", "zk.leader.root=leader")
			.run((context) -> {
				ZkStartupException failure = startupFailure(context.getStartupFailure());
				assertThat(failure.getDescription()).contains("zk.leader.root");
				assertThat(failure.getAction()).contains("/leader");
			});
	}

	@Test
	void backsOffWhenLeaderElectionIsDisabled() {
		this.contextRunner.withPropertyValues("zk.leader.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(ZkLeaderElection.class)
				.doesNotHaveBean(LeaderOnlyBeanPostProcessor.class));
	}

	@Test
	void backsOffWhenZkIsDisabled() {
		this.contextRunner.withPropertyValues("zk.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(ZkLeaderElection.class));
	}

	@Test
	void backsOffWhenCuratorRecipesAreMissing() {
		this.contextRunner.withPropertyValues("spring.application.name=orders")
			.withClassLoader(new FilteredClassLoader(LeaderLatch.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(ZkLeaderElection.class));
	}

	@Test
	void backsOffWhenTheApplicationDefinesItsOwnElection() throws Exception {
		CuratorFramework client = zk.newClient();
		this.contextRunner.withPropertyValues("spring.application.name=orders")
			.withBean("myElection", ZkLeaderElection.class,
					() -> new ZkLeaderElection(client, "/mine/orders", () -> "mine", Duration.ZERO,
							Duration.ZERO))
			.run((context) -> assertThat(context).hasSingleBean(ZkLeaderElection.class)
				.getBean(ZkLeaderElection.class)
				.extracting(ZkLeaderElection::latchPath)
				.isEqualTo("/mine/orders"));
	}

	static ZkStartupException startupFailure(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof ZkStartupException startupException) {
				return startupException;
			}
		}
		throw new AssertionError("no ZkStartupException in " + failure, failure);
	}

}
