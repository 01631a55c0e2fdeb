package dev.zkspring.jobs;

import java.time.Duration;

import org.jspecify.annotations.Nullable;
import org.quartz.SchedulerException;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.Environment;
import org.springframework.scheduling.quartz.SchedulerFactoryBean;

import dev.zkspring.leader.RevokePolicy;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.leader.quartz.SchedulerGate;
import dev.zkspring.leader.term.ElectionAccess;

/**
 * A {@link SchedulerFactoryBean} for applications that declare their own scheduler: it never starts
 * on its own, but while this instance leads. Configure it as any {@code SchedulerFactoryBean}; the
 * revoke policy defaults to {@code zk.quartz.on-revoke}.
 */
public class LeaderGatedSchedulerFactoryBean extends SchedulerFactoryBean implements EnvironmentAware {

	private final ZkLeaderElection election;

	private @Nullable RevokePolicy onRevoke;

	private @Nullable SchedulerGate gate;

	private Duration startupDelay = Duration.ZERO;

	/**
	 * Create a factory whose scheduler runs only while the given election leads.
	 * @param election the application's election
	 */
	public LeaderGatedSchedulerFactoryBean(ZkLeaderElection election) {
		this.election = election;
		super.setAutoStartup(false);
	}

	/** Ignored: leadership starts this scheduler, never the context. */
	@Override
	public void setAutoStartup(boolean autoStartup) {
	}

	/** Gated, how long after each grant the scheduler starts (the grant comes after the context's start). */
	@Override
	public void setStartupDelay(int startupDelay) {
		this.startupDelay = Duration.ofSeconds(startupDelay);
		super.setStartupDelay(startupDelay);
	}

	/** What to do with jobs still running when leadership is revoked. */
	public void setOnRevoke(RevokePolicy onRevoke) {
		this.onRevoke = onRevoke;
	}

	@Override
	public void setEnvironment(Environment environment) {
		if (this.onRevoke == null) {
			this.onRevoke = Binder.get(environment).bind("zk.quartz.on-revoke", RevokePolicy.class).orElse(null);
		}
	}

	@Override
	public void afterPropertiesSet() throws Exception {
		super.afterPropertiesSet();
		RevokePolicy policy = (this.onRevoke != null) ? this.onRevoke : RevokePolicy.STANDBY;
		this.gate = new SchedulerGate(getScheduler(), this.election, ElectionAccess.of(ZkLeaderElection.class)::records,
				policy);
		this.gate.startupDelay(this.startupDelay);
		this.gate.attach();
	}

	@Override
	public void destroy() throws SchedulerException {
		if (this.gate != null) {
			this.gate.detach();
		}
		super.destroy();
	}

}
