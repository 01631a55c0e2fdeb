package dev.zkspring.leader.group;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.zkspring.leader.ElectionGroup;
import dev.zkspring.leader.LeadershipGrantedEvent;
import dev.zkspring.leader.LeadershipListener;
import dev.zkspring.leader.LeadershipRevokedEvent;
import dev.zkspring.leader.ZkLeaderElection;

/**
 * Spreads the groups over the participants. Every half second it reads who leads each group; an
 * instance that leads more than {@code maxGroups} hands one of them to the next participant (drain,
 * then release, see {@code ZkLeaderElection#stepBack()}) when a participant of that group leads fewer
 * than {@code maxGroups}: the participant that is available. Without a cap nothing moves.
 * Against flapping: an instance hands nothing over within {@code hold} of taking a group, and hands
 * over at most one group per {@code hold}.
 */
public final class GroupBalancer {

	private static final Log logger = LogFactory.getLog(GroupBalancer.class);

	private static final long TICK_MILLIS = 500;

	private final Map<String, ZkLeaderElection> elections;

	/** Hands an election's leadership over gracefully, staying in it; false when not leading or already doing so. */
	private final Predicate<ZkLeaderElection> stepBack;

	private final int maxGroups;

	private final long holdNanos;

	/** By group: when this instance's current leadership of it began. */
	private final Map<String, Long> leadingSince = new ConcurrentHashMap<>();

	private long lastHandover;

	private @Nullable ScheduledExecutorService executor;

	/**
	 * Balance the groups' elections.
	 * @param elections by group name
	 * @param stepBack hands an election's leadership over gracefully and stays in it
	 * @param maxGroups how many groups an instance leads at most while another participant leads fewer
	 * @param hold how long a leader keeps a group it took before it may hand it over
	 */
	public GroupBalancer(Map<String, ZkLeaderElection> elections, Predicate<ZkLeaderElection> stepBack, int maxGroups,
			Duration hold) {
		this.elections = elections;
		this.stepBack = stepBack;
		this.maxGroups = maxGroups;
		this.holdNanos = hold.toNanos();
		this.lastHandover = System.nanoTime() - this.holdNanos;
		elections.forEach((group, election) -> election.addListener(new LeadershipListener() {

			@Override
			public void leadershipGranted(LeadershipGrantedEvent event) {
				GroupBalancer.this.leadingSince.put(group, System.nanoTime());
			}

			@Override
			public void leadershipRevoked(LeadershipRevokedEvent event) {
				GroupBalancer.this.leadingSince.remove(group);
			}

		}));
	}

	public synchronized void start() {
		if (this.maxGroups == Integer.MAX_VALUE) {
			return;
		}
		ScheduledExecutorService started = Executors.newSingleThreadScheduledExecutor((runnable) -> {
			Thread thread = new Thread(runnable, "zk-leader-groups");
			thread.setDaemon(true);
			return thread;
		});
		started.scheduleWithFixedDelay(this::balanceSafely, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
		this.executor = started;
	}

	public synchronized void stop() {
		ScheduledExecutorService current = this.executor;
		if (current != null) {
			current.shutdownNow();
			this.executor = null;
		}
	}

	private void balanceSafely() {
		try {
			balance();
		}
		catch (RuntimeException ex) {
			logger.debug("Could not balance the leader groups this time: " + ex);
		}
	}

	private void balance() {
		long now = System.nanoTime();
		if (now - this.lastHandover < this.holdNanos
				|| this.leadingSince.values().stream().anyMatch((since) -> now - since < this.holdNanos)) {
			return;
		}
		Map<String, ElectionGroup> views = new HashMap<>();
		Map<String, Integer> led = new HashMap<>();
		for (Map.Entry<String, ZkLeaderElection> entry : this.elections.entrySet()) {
			ElectionGroup view = entry.getValue().group();
			if (!view.current()) {
				return;
			}
			views.put(entry.getKey(), view);
			view.leaderId().ifPresent((id) -> led.merge(id, 1, Integer::sum));
		}
		for (Map.Entry<String, ZkLeaderElection> entry : this.elections.entrySet()) {
			ZkLeaderElection election = entry.getValue();
			if (!election.isLeader()) {
				continue;
			}
			String me = election.participantId();
			int mine = led.getOrDefault(me, 0);
			String fewest = null;
			int fewestCount = Integer.MAX_VALUE;
			for (String other : views.get(entry.getKey()).participants()) {
				int count = led.getOrDefault(other, 0);
				if (!other.equals(me) && count < fewestCount) {
					fewest = other;
					fewestCount = count;
				}
			}
			if (fewest != null && mine > this.maxGroups && fewestCount < this.maxGroups
					&& this.stepBack.test(election)) {
				this.lastHandover = now;
				logger.info("Handing leadership of " + election.latchPath() + " over to balance the groups: this instance "
						+ "leads " + mine + " groups, participant " + fewest + " leads " + fewestCount
						+ " (zk.leader.max-groups=" + this.maxGroups + ")");
				return;
			}
		}
	}

}
