package dev.zkspring.actuate;

import java.time.Duration;
import java.util.List;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;

import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.core.Ordered;
import org.springframework.core.PriorityOrdered;

import dev.zkspring.config.ZkConfigChangedEvent;
import dev.zkspring.config.ZkConfigRejectedEvent;
import dev.zkspring.leader.LeadershipGrantedEvent;
import dev.zkspring.leader.LeadershipListener;
import dev.zkspring.leader.LeadershipRevokedEvent;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.lock.ZkLock;
import dev.zkspring.lock.ZkLockObserver;
import dev.zkspring.lock.ZkLockTemplate;
import dev.zkspring.refresh.ZkRefreshedEvent;

/**
 * zk-spring's meters (listed in the README): lock timers and counters tagged by lock name, config
 * changes, refreshes and rejections, and the leadership. Meters are created on a local composite that
 * every registry Boot binds this binder to joins. Every meter that does not depend on a lock name or a
 * znode is registered at 0 when the binder is bound at startup, so dashboards and {@code increase()}
 * see the first event.
 */
public final class ZkMetrics implements MeterBinder, ApplicationListener<ApplicationEvent>, PriorityOrdered, ZkLockObserver {

	private final CompositeMeterRegistry meters = new CompositeMeterRegistry();

	private final List<ZkLockTemplate> lockTemplates;

	private final List<ZkLeaderElection> elections;

	/**
	 * Create the meters and start observing the locks and elections.
	 * @param lockTemplates the application's lock templates
	 * @param elections the application's leader elections
	 */
	public ZkMetrics(List<ZkLockTemplate> lockTemplates, List<ZkLeaderElection> elections) {
		this.lockTemplates = List.copyOf(lockTemplates);
		this.elections = List.copyOf(elections);
		for (ZkLockTemplate template : this.lockTemplates) {
			template.addObserver(this);
		}
		for (ZkLeaderElection election : this.elections) {
			election.addListener(new Transitions(group(election)));
		}
	}

	/** Joins the registry, then registers every meter that exists from the start, at 0 (after, so the registry holds them). */
	@Override
	public void bindTo(MeterRegistry registry) {
		this.meters.add(registry);
		configChanges();
		refreshTimer();
		for (ZkLockTemplate template : this.lockTemplates) {
			FunctionCounter.builder("zk.lock.lost", template, ZkLockTemplate::getLostLockCount)
				.description("Held locks lost or put in doubt by a suspended or expired session")
				.register(this.meters);
		}
		for (ZkLeaderElection election : this.elections) {
			Tags group = group(election);
			Gauge.builder("zk.leader.leading", election, (e) -> e.isLeader() ? 1 : 0)
				.description("1 while this instance leads the group, else 0")
				.tags(group)
				.register(this.meters);
			FunctionCounter.builder("zk.leader.vetoed.firings", election, ZkLeaderElection::getVetoedFirings)
				.description("Scheduled firings the leader gate vetoed because this instance did not lead")
				.tags(group)
				.register(this.meters);
			transitions(group, "leader");
			transitions(group, "follower");
		}
	}

	private static Tags group(ZkLeaderElection election) {
		return Tags.of("group", election.latchPath());
	}

	@Override
	public void acquired(String name, ZkLock.Mode mode, Duration waited) {
		wait(name, mode, "acquired", waited);
		this.meters.counter("zk.lock.acquired", lockTags(name, mode)).increment();
	}

	@Override
	public void busy(String name, ZkLock.Mode mode, Duration waited) {
		wait(name, mode, "busy", waited);
		this.meters.counter("zk.lock.busy", lockTags(name, mode)).increment();
	}

	@Override
	public void unavailable(String name, ZkLock.Mode mode, Duration waited) {
		wait(name, mode, "unavailable", waited);
		this.meters.counter("zk.lock.unavailable", lockTags(name, mode)).increment();
	}

	@Override
	public void released(String name, ZkLock.Mode mode, Duration held) {
		Timer.builder("zk.lock.hold")
			.description("Time a lock was held (the guarded body's run time)")
			.tags(lockTags(name, mode))
			.register(this.meters)
			.record(held);
	}

	@Override
	public void onApplicationEvent(ApplicationEvent event) {
		if (event instanceof ZkConfigChangedEvent) {
			configChanges().increment();
		}
		else if (event instanceof ZkConfigRejectedEvent rejected) {
			this.meters.counter("zk.config.rejections", "znode", rejected.getZnode()).increment();
		}
		else if (event instanceof ZkRefreshedEvent refreshed) {
			refreshTimer().record(refreshed.getDuration());
		}
	}

	@Override
	public boolean supportsAsyncExecution() {
		return false;
	}

	/** Before the application's listeners, so that one of theirs that throws cannot keep this from hearing of a change. */
	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

	private Counter configChanges() {
		return Counter.builder("zk.config.changes")
			.description("Accepted configuration changes from ZooKeeper")
			.register(this.meters);
	}

	private Timer refreshTimer() {
		return Timer.builder("zk.refresh")
			.description("Validated rebinds of @RefreshScope targets after a configuration change")
			.register(this.meters);
	}

	private Counter transitions(Tags group, String to) {
		return Counter.builder("zk.leader.transitions")
			.description("Changes of this instance's leadership, by the role it changed to")
			.tags(group.and("to", to))
			.register(this.meters);
	}

	private void wait(String name, ZkLock.Mode mode, String outcome, Duration waited) {
		Timer.builder("zk.lock.wait")
			.description("Time spent waiting to take a lock, by outcome")
			.tags(lockTags(name, mode).and("outcome", outcome))
			.register(this.meters)
			.record(waited);
	}

	private static Tags lockTags(String name, ZkLock.Mode mode) {
		return Tags.of("lock", name, "mode", mode.name());
	}

	private final class Transitions implements LeadershipListener {

		private final Tags group;

		Transitions(Tags group) {
			this.group = group;
		}

		@Override
		public void leadershipGranted(LeadershipGrantedEvent event) {
			transitions(this.group, "leader").increment();
		}

		@Override
		public void leadershipRevoked(LeadershipRevokedEvent event) {
			transitions(this.group, "follower").increment();
		}

	}

}
