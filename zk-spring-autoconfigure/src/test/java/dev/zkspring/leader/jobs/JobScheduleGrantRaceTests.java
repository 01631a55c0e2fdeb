package dev.zkspring.leader.jobs;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.quartz.CronTrigger;
import org.quartz.Scheduler;
import org.quartz.Trigger;
import org.quartz.TriggerKey;

import dev.zkspring.jobs.ZkLeaderGroups;
import dev.zkspring.leader.AppInstances.Instance;
import dev.zkspring.leader.AppInstances;
import dev.zkspring.leader.LeaderInternals;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A {@code zk.quartz.jobs.<job>} change that arrives while a grant moves the job's trigger past the
 * recorded fire time (the single election's standby, or a leader group's held job): the change is not
 * overwritten by the grant's copy of the old trigger; the latest configured schedule is in force.
 */
class JobScheduleGrantRaceTests {

	private static final TriggerKey TRIGGER = TriggerKey.triggerKey("report-trigger");

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@RegisterExtension
	final AppInstances instances = JobOperationsApp.instances(zk, "zk.leader.drain-timeout=1s");

	@ParameterizedTest(name = "leader group: {0}")
	@ValueSource(booleans = { false, true })
	void scheduleChangedWhileAGrantMovesTheTriggerIsInForceAfterTheGrant(boolean grouped) throws Exception {
		String[] groups = grouped ? new String[] { "zk.leader.groups.one=report" } : new String[0];
		Instance a = this.instances.start("a", groups);
		await().atMost(Duration.ofSeconds(10)).until(() -> election(a, grouped).isLeader());
		Instance b = this.instances.start("b", groups);
		JobOperationsApp.publish(this.instances.writer(), this.instances.group(), JobOperationsApp.schedule("cron", "* * * * * ?"));
		await().atMost(Duration.ofSeconds(10)).until(() -> JobOperationsApp.count("a") >= 2);
		await().atMost(Duration.ofSeconds(5)).until(() -> cronOf(b).equals("* * * * * ?"));

		AtomicBoolean once = new AtomicBoolean();
		CountDownLatch moved = new CountDownLatch(1);
		LeaderInternals.records(election(b, grouped)).beforeTriggerMove = () -> {
			if (!once.compareAndSet(false, true)) {
				return;
			}
			try {
				JobOperationsApp.publish(this.instances.writer(), this.instances.group(),
						JobOperationsApp.schedule("cron", "*/2 * * * * ?"));
				// let the change be applied meanwhile, if anything lets it (bounded: applied only after the move is right)
				await().atMost(Duration.ofSeconds(3)).until(() -> cronOf(b).equals("*/2 * * * * ?"));
			}
			catch (ConditionTimeoutException ex) {
				// the change waits for the move
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
			finally {
				moved.countDown();
			}
		};
		a.context().close();

		await().atMost(Duration.ofSeconds(15)).until(() -> moved.getCount() == 0 && grantDone(b, grouped));
		assertThat(once).as("the grant moved the trigger").isTrue();
		await().atMost(Duration.ofSeconds(5)).until(() -> cronOf(b).equals("*/2 * * * * ?"));
		long before = JobOperationsApp.count("b");
		await().atMost(Duration.ofSeconds(10)).until(() -> JobOperationsApp.count("b") >= before + 2);
		assertThat(JobOperationsApp.runs).extracting(JobOperationsApp.Run::fireTime).doesNotHaveDuplicates();
		assertThat(cronOf(b)).isEqualTo("*/2 * * * * ?");
	}

	private static ZkLeaderElection election(Instance instance, boolean grouped) {
		return grouped ? instance.context().getBean(ZkLeaderGroups.class).elections().get("one") : instance.election();
	}

	/** The grant's work is over: the scheduler runs and the trigger is not held. */
	private static boolean grantDone(Instance instance, boolean grouped) throws Exception {
		Scheduler scheduler = instance.context().getBean(Scheduler.class);
		return election(instance, grouped).isLeader() && scheduler.isStarted() && !scheduler.isInStandbyMode()
				&& scheduler.getTriggerState(TRIGGER) == Trigger.TriggerState.NORMAL;
	}

	private static String cronOf(Instance instance) throws Exception {
		Object trigger = instance.context().getBean(Scheduler.class).getTrigger(TRIGGER);
		return (trigger instanceof CronTrigger cron) ? cron.getCronExpression() : String.valueOf(trigger);
	}

}
