package dev.zkspring.leader;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.quartz.SchedulerException;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.quartz.autoconfigure.SchedulerFactoryBeanCustomizer;
import org.springframework.core.Ordered;
import org.springframework.scheduling.quartz.SchedulerFactoryBean;

/**
 * Gates Spring Boot's auto-configured Quartz scheduler: turns its auto-startup off (last, after any
 * other customizer) and, once the scheduler exists, ties it to the election. Public only so the
 * auto-configuration can create it.
 */
public final class LeaderGatedSchedulerCustomizer
		implements SchedulerFactoryBeanCustomizer, SmartInitializingSingleton, DisposableBean, Ordered {

	private final ZkLeaderElection election;

	private final RevokePolicy onRevoke;

	private final List<SchedulerFactoryBean> factories = new CopyOnWriteArrayList<>();

	private final List<SchedulerGate> gates = new CopyOnWriteArrayList<>();

	/**
	 * Create the customizer.
	 * @param election the application's election
	 * @param onRevoke what to do with jobs still running when leadership is revoked
	 */
	public LeaderGatedSchedulerCustomizer(ZkLeaderElection election, RevokePolicy onRevoke) {
		this.election = election;
		this.onRevoke = onRevoke;
	}

	@Override
	public void customize(SchedulerFactoryBean schedulerFactoryBean) {
		schedulerFactoryBean.setAutoStartup(false);
		this.factories.add(schedulerFactoryBean);
	}

	@Override
	public void afterSingletonsInstantiated() {
		for (SchedulerFactoryBean factory : this.factories) {
			SchedulerGate gate = new SchedulerGate(factory.getScheduler(), this.election, this.onRevoke);
			try {
				gate.attach();
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
