package dev.zkspring.jobs;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;

import org.jspecify.annotations.Nullable;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.impl.matchers.GroupMatcher;

import org.springframework.aot.AotDetector;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.quartz.autoconfigure.SchedulerFactoryBeanCustomizer;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.core.Ordered;
import org.springframework.scheduling.quartz.SchedulerFactoryBean;

import dev.zkspring.client.ZkStartupException;
import dev.zkspring.leader.RevokePolicy;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.leader.quartz.AotJobFactory;
import dev.zkspring.leader.quartz.SchedulerGate;
import dev.zkspring.leader.term.ElectionAccess;

/**
 * Gates Spring Boot's auto-configured Quartz scheduler: turns its auto-startup off (last, after any
 * other customizer) and, once the scheduler exists, ties it to the election. In an AOT-processed
 * context it also sets a job factory that injects jobs' {@code @Autowired} members. Public only so the
 * auto-configuration can create it.
 */
public final class LeaderGatedSchedulerCustomizer
		implements SchedulerFactoryBeanCustomizer, SmartInitializingSingleton, DisposableBean, ApplicationContextAware,
		Ordered {

	private static final String MISFIRE_THRESHOLD_PROPERTY = "org.quartz.jobStore.misfireThreshold";

	private static final ElectionAccess<ZkLeaderElection> ACCESS = ElectionAccess.of(ZkLeaderElection.class);

	private final ZkLeaderElection election;

	private final RevokePolicy onRevoke;

	private final List<SchedulerFactoryBean> factories = new CopyOnWriteArrayList<>();

	private final List<SchedulerGate> gates = new CopyOnWriteArrayList<>();

	private @Nullable ApplicationContext context;

	private final @Nullable ZkJobs jobs;

	private final @Nullable ZkLeaderGroups groups;

	/**
	 * Create the customizer.
	 * @param election the application's election
	 * @param onRevoke what to do with jobs still running when leadership is revoked
	 */
	public LeaderGatedSchedulerCustomizer(ZkLeaderElection election, RevokePolicy onRevoke) {
		this(election, onRevoke, null);
	}

	/**
	 * Create the customizer with job operations.
	 * @param election the application's election
	 * @param onRevoke what to do with jobs still running when leadership is revoked
	 * @param jobs the job operations (configured schedules, requests, history), {@code null} for none
	 */
	public LeaderGatedSchedulerCustomizer(ZkLeaderElection election, RevokePolicy onRevoke, @Nullable ZkJobs jobs) {
		this(election, onRevoke, jobs, null);
	}

	/**
	 * Create the customizer for an application whose jobs may belong to leader groups.
	 * @param election the application's election, for the jobs of no group
	 * @param onRevoke what to do with jobs still running when leadership is revoked
	 * @param jobs the job operations (configured schedules, requests, history), {@code null} for none
	 * @param groups the leader groups of {@code zk.leader.groups}, {@code null} for none
	 */
	public LeaderGatedSchedulerCustomizer(ZkLeaderElection election, RevokePolicy onRevoke, @Nullable ZkJobs jobs,
			@Nullable ZkLeaderGroups groups) {
		this.election = election;
		this.onRevoke = onRevoke;
		this.jobs = jobs;
		this.groups = groups;
	}

	@Override
	public void setApplicationContext(ApplicationContext applicationContext) {
		this.context = applicationContext;
	}

	@Override
	public void customize(SchedulerFactoryBean schedulerFactoryBean) {
		schedulerFactoryBean.setAutoStartup(false);
		defaultMisfireThreshold(schedulerFactoryBean);
		if (AotDetector.useGeneratedArtifacts() && this.context != null) {
			// Boot's job factory would leave @Autowired members of jobs unset in an AOT-processed context
			schedulerFactoryBean.setJobFactory(new AotJobFactory(this.context));
		}
		this.factories.add(schedulerFactoryBean);
	}

	/**
	 * Quartz's in-memory store takes a fire time more than 5 s late for a misfire (its JDBC store: 60 s),
	 * and a leaderless gap lasts about a session timeout: without a threshold of the user's, the gated
	 * scheduler gets {@link SchedulerGate#MISFIRE_THRESHOLD} (60 s) on either store, so the gap's fire times
	 * run late at their own times, as docs/leadership.md says, instead of a cron trigger's one "now".
	 */
	private void defaultMisfireThreshold(SchedulerFactoryBean schedulerFactoryBean) {
		if (this.context == null) {
			return;
		}
		Map<String, String> configured = Binder.get(this.context.getEnvironment())
			.bind("spring.quartz.properties", Bindable.mapOf(String.class, String.class))
			.orElse(Map.of());
		if (configured.containsKey(MISFIRE_THRESHOLD_PROPERTY)) {
			return;
		}
		// the same properties Boot set from spring.quartz.properties, and the threshold
		Properties properties = new Properties();
		properties.putAll(configured);
		properties.setProperty(MISFIRE_THRESHOLD_PROPERTY, String.valueOf(SchedulerGate.MISFIRE_THRESHOLD.toMillis()));
		schedulerFactoryBean.setQuartzProperties(properties);
	}

	@Override
	public void afterSingletonsInstantiated() {
		// Boot's scheduler would wait this long after the context starts; gated, it waits that long after each grant
		Duration startupDelay = (this.context != null) ? Binder.get(this.context.getEnvironment())
			.bind("spring.quartz.startup-delay", Duration.class)
			.orElse(Duration.ZERO) : Duration.ZERO;
		for (SchedulerFactoryBean factory : this.factories) {
			Scheduler scheduler = factory.getScheduler();
			ZkLeaderGroups grouped = this.groups;
			try {
				if (grouped == null) {
					SchedulerGate gate = new SchedulerGate(scheduler, this.election, ACCESS::records,
							this.onRevoke);
					gate.startupDelay(startupDelay);
					gate.attach();
					if (this.jobs != null) {
						gate.operate(this.jobs.operations());
					}
					this.gates.add(gate);
					continue;
				}
				checkJobStoreIsLocal(scheduler);
				checkGroupedJobsExist(scheduler, grouped);
				List<SchedulerGate> shared = gatesOf(scheduler, grouped);
				for (SchedulerGate gate : shared) {
					gate.startupDelay(startupDelay);
					gate.attach();
				}
				if (this.jobs != null) {
					this.jobs.operations().held((job) -> shared.stream().anyMatch((gate) -> gate.holds(job)));
					shared.get(0).operate(this.jobs.operations());
					shared.subList(1, shared.size()).forEach((gate) -> gate.operatedBy(this.jobs.operations()));
				}
				this.gates.addAll(shared);
			}
			catch (SchedulerException ex) {
				throw new IllegalStateException("Could not gate Quartz scheduler with leadership", ex);
			}
		}
	}

	/** The application's gate (the jobs of no group) first, then one per leader group, sharing the scheduler. */
	private List<SchedulerGate> gatesOf(Scheduler scheduler, ZkLeaderGroups grouped) {
		Set<SchedulerGate> leading = new HashSet<>();
		List<SchedulerGate> gates = new ArrayList<>();
		gates.add(new SchedulerGate(scheduler, this.election, ACCESS::records, this.onRevoke,
				(job) -> grouped.groupOf(job.getName()).isEmpty(), leading, true));
		for (var group : grouped.elections().entrySet()) {
			// a job's fire times are its own, whichever group an instance's configuration puts it in
			ACCESS.records(group.getValue()).keepFireTimesBeside(this.election.latchPath());
			gates.add(new SchedulerGate(scheduler, group.getValue(), ACCESS::records, this.onRevoke,
					(job) -> grouped.groupOf(job.getName()).filter(group.getKey()::equals).isPresent(), leading, false));
		}
		return gates;
	}

	/**
	 * Leader groups hold a group's jobs on every instance that does not lead it (Quartz's pause): on a
	 * persistent job store those pauses would be writes to the rows every instance shares, stopping the
	 * group's jobs on its leader too.
	 */
	private static void checkJobStoreIsLocal(Scheduler scheduler) throws SchedulerException {
		if (scheduler.getMetaData().isJobStoreSupportsPersistence()) {
			throw new ZkStartupException("zk.leader.groups is set and the Quartz scheduler '" + scheduler.getSchedulerName()
					+ "' uses a persistent job store (" + scheduler.getMetaData().getJobStoreClass().getSimpleName()
					+ ", spring.quartz.job-store-type=jdbc, clustered or not): leader groups hold each group's jobs on "
					+ "the instances that do not lead it, which on a shared job store would pause them for its leader too.",
					"Remove zk.leader.groups (the single election gates every job), or use Quartz's in-memory job store "
							+ "(spring.quartz.job-store-type=memory, the default) with leader groups.");
		}
	}

	private static void checkGroupedJobsExist(Scheduler scheduler, ZkLeaderGroups groups) throws SchedulerException {
		Set<String> known = new TreeSet<>();
		for (JobKey key : scheduler.getJobKeys(GroupMatcher.anyJobGroup())) {
			known.add(key.getName());
		}
		groups.jobGroups().forEach((job, group) -> {
			if (!known.contains(job)) {
				throw new ZkStartupException("zk.leader.groups." + group + " names Quartz job '" + job
						+ "', and the scheduler has no job of that name; its jobs are " + known + ".",
						"Name jobs by their JobDetail key's name, or remove '" + job + "' from zk.leader.groups." + group + ".");
			}
		});
	}

	@Override
	public void destroy() {
		this.gates.forEach(SchedulerGate::detach);
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

}
