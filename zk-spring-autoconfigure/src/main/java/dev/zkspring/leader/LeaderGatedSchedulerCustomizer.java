package dev.zkspring.leader;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.jspecify.annotations.Nullable;
import org.quartz.SchedulerException;

import org.springframework.aot.AotDetector;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.quartz.autoconfigure.SchedulerFactoryBeanCustomizer;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.core.Ordered;
import org.springframework.scheduling.quartz.SchedulerFactoryBean;

/**
 * Gates Spring Boot's auto-configured Quartz scheduler: turns its auto-startup off (last, after any
 * other customizer) and, once the scheduler exists, ties it to the election. In an AOT-processed
 * context it also sets a job factory that injects jobs' {@code @Autowired} members. Public only so the
 * auto-configuration can create it.
 */
public final class LeaderGatedSchedulerCustomizer
		implements SchedulerFactoryBeanCustomizer, SmartInitializingSingleton, DisposableBean, ApplicationContextAware,
		Ordered {

	private final ZkLeaderElection election;

	private final RevokePolicy onRevoke;

	private final List<SchedulerFactoryBean> factories = new CopyOnWriteArrayList<>();

	private final List<SchedulerGate> gates = new CopyOnWriteArrayList<>();

	private @Nullable ApplicationContext context;

	private final @Nullable ZkJobs jobs;

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
		this.election = election;
		this.onRevoke = onRevoke;
		this.jobs = jobs;
	}

	@Override
	public void setApplicationContext(ApplicationContext applicationContext) {
		this.context = applicationContext;
	}

	@Override
	public void customize(SchedulerFactoryBean schedulerFactoryBean) {
		schedulerFactoryBean.setAutoStartup(false);
		if (AotDetector.useGeneratedArtifacts() && this.context != null) {
			// Boot's job factory would leave @Autowired members of jobs unset in an AOT-processed context
			schedulerFactoryBean.setJobFactory(new AotJobFactory(this.context));
		}
		this.factories.add(schedulerFactoryBean);
	}

	@Override
	public void afterSingletonsInstantiated() {
		for (SchedulerFactoryBean factory : this.factories) {
			SchedulerGate gate = new SchedulerGate(factory.getScheduler(), this.election, this.onRevoke);
			try {
				gate.attach();
				if (this.jobs != null) {
					gate.operate(this.jobs);
				}
			}
			catch (SchedulerException ex) {
				throw new IllegalStateException("Could not gate Quartz scheduler with leadership", ex);
			}
			this.gates.add(gate);
		}
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
