package dev.zkspring.leader.quartz;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.impl.StdSchedulerFactory;

import dev.zkspring.leader.ZkLeaderElection;

/**
 * The elections and in-memory Quartz schedulers a gate test starts by hand (no Spring), stopped after
 * each test: the schedulers first, then the elections. Register it on an instance field.
 */
final class StartedSchedulers implements AfterEachCallback {

	private final List<ZkLeaderElection> elections = new ArrayList<>();

	private final List<Scheduler> schedulers = new ArrayList<>();

	/** An election to stop after the test. */
	ZkLeaderElection add(ZkLeaderElection election) {
		this.elections.add(election);
		return election;
	}

	/** A new in-memory scheduler (not started) with this name and these threads, shut down after the test. */
	Scheduler scheduler(String name, int threads) throws SchedulerException {
		Properties properties = new Properties();
		properties.setProperty("org.quartz.scheduler.instanceName", name);
		properties.setProperty("org.quartz.threadPool.threadCount", String.valueOf(threads));
		properties.setProperty("org.quartz.jobStore.class", "org.quartz.simpl.RAMJobStore");
		Scheduler scheduler = new StdSchedulerFactory(properties).getScheduler();
		this.schedulers.add(scheduler);
		return scheduler;
	}

	@Override
	public void afterEach(ExtensionContext context) throws Exception {
		for (Scheduler scheduler : this.schedulers) {
			scheduler.shutdown(false);
		}
		this.elections.forEach(ZkLeaderElection::stop);
	}

}
