package dev.zkspring.leader.shard;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.nodes.PersistentNode;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.jspecify.annotations.Nullable;
import org.quartz.JobExecutionContext;
import org.quartz.Scheduler;

import org.springframework.context.ApplicationContext;

import dev.zkspring.client.OwnedPaths;
import dev.zkspring.leader.LeaderJobs;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.leader.shard.FireRecord.Run;

/**
 * Sharded jobs on this instance: makes this instance a member that shards are given to, makes the leader's
 * firing of a sharded job a dispatch, claims and runs this instance's shards, hands over those of lost
 * instances, and describes the shards for the {@code zookeeper} endpoint. What {@code ZkShards}, the public
 * entry point, does. Over 300 lines (about 420): the membership's lifecycle (joining, leaving when no job is
 * sharded any more, stopping) and the endpoint's view of the same znodes stay together.
 */
public final class ShardOperations {

	private static final Log logger = LogFactory.getLog(ShardOperations.class);

	private final CuratorFramework client;

	private final ZkLeaderElection election;

	private final Supplier<@Nullable Scheduler> scheduler;

	private final Duration drainTimeout;

	private final ShardSettings settings;

	private final ShardPaths paths;

	private final ShardDispatcher dispatcher;

	private final ShardJobFactory jobFactory;

	private final ShardRunner runner;

	private final AtomicBoolean scanPending = new AtomicBoolean();

	/** Between the lifecycle's start and stop. */
	private volatile boolean running;

	/** Whether this instance is a member and scans: from the first moment some job is sharded. */
	private volatile boolean joined;

	private @Nullable PersistentNode member;

	private @Nullable CuratorCache cache;

	private @Nullable ScheduledExecutorService scans;

	/**
	 * @param client the application's client
	 * @param election the application's election: shards live beside its latch node, members use its participant id
	 * @param scheduler the gated scheduler (Boot's), whose job factory this stands in front of; may answer {@code null}
	 * @param context the application context, for Spring's job factory
	 * @param drainTimeout how long a graceful stop waits for the shards running here
	 */
	public ShardOperations(CuratorFramework client, ZkLeaderElection election, Supplier<@Nullable Scheduler> scheduler,
			ApplicationContext context, Duration drainTimeout) {
		this.client = client;
		this.election = election;
		this.scheduler = scheduler;
		this.drainTimeout = drainTimeout;
		this.settings = new ShardSettings(context.getEnvironment());
		this.paths = ShardPaths.beside(election.latchPath());
		this.dispatcher = new ShardDispatcher(client, this.paths, election::participantId);
		this.jobFactory = new ShardJobFactory(context, this.settings, this::dispatch);
		this.runner = new ShardRunner(client, this.paths, election::participantId, scheduler, this.jobFactory);
	}

	/** Bind the settings and put the job factory of sharded jobs in front of the scheduler's; before it first starts. */
	public void attachScheduler() {
		this.settings.refresh();
		Scheduler quartz = this.scheduler.get();
		if (quartz != null) {
			try {
				this.jobFactory.wrap(quartz);
			}
			catch (Exception ex) {
				throw new IllegalStateException("Could not give the Quartz scheduler the job factory of sharded jobs", ex);
			}
		}
	}

	/**
	 * Bind the settings again: any key may change one through a placeholder; applies from the next fire time.
	 * The first sharded job makes this instance a member.
	 */
	public void configurationChanged() {
		this.settings.refresh();
		if (this.running && this.settings.any()) {
			joinAndScan();
		}
		else if (this.running && this.joined) {
			leaveUnsharded();
		}
	}

	/**
	 * The last sharded job's settings went: leave as a stop does (no more scans, the shards running here
	 * finish first, bounded), keeping the runner for a job sharded again later.
	 */
	private void leaveUnsharded() {
		@Nullable ScheduledExecutorService executor;
		@Nullable CuratorCache watched;
		@Nullable PersistentNode node;
		synchronized (this) {
			if (!this.joined || this.settings.any()) {
				return;
			}
			this.joined = false;
			executor = this.scans;
			this.scans = null;
			watched = this.cache;
			this.cache = null;
			node = this.member;
			this.member = null;
		}
		if (executor != null) {
			executor.shutdown();
		}
		awaitShardsBeforeLeaving();
		closeQuietly(watched);
		closeMember(node);
		logger.info("No job is sharded any more: left the shard members of " + this.paths.root());
	}

	private void dispatch(JobExecutionContext context, String trigger, long fireTime, ShardSettings.Shards shards)
			throws Exception {
		this.dispatcher.dispatch(context.getJobDetail().getKey(), trigger, fireTime, LeaderJobs.epoch(context), shards,
				context.getJobDetail().requestsRecovery());
	}

	/**
	 * Start; join as a member and watch the fire times only once some job is sharded (now, or when the
	 * configuration first shards one): an application without sharded jobs keeps no member node and no scan.
	 */
	public synchronized void start() {
		this.running = true;
		if (this.settings.any()) {
			joinAndScan();
		}
	}

	/** Whether this instance is a member that shards are given to, and scans the fire times. */
	public boolean isMember() {
		return this.joined;
	}

	private synchronized void joinAndScan() {
		if (this.joined || !this.running) {
			return;
		}
		try {
			OwnedPaths.ensure(this.client, this.paths.members());
		}
		catch (Exception ex) {
			logger.warn("Could not create " + this.paths.members() + " yet; retried in the background: " + ex);
		}
		join();
		CuratorCache watched = CuratorCache.builder(this.client, this.paths.root())
			.withExceptionHandler(this::cacheFailed)
			.build();
		watched.listenable().addListener((type, before, after) -> requestScan());
		watched.start();
		this.cache = watched;
		ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "zk-shard-scan");
			thread.setDaemon(true);
			return thread;
		});
		this.scans = executor;
		this.joined = true;
		logger.debug("Joined the shard members of " + this.paths.root());
		// watches bring each change at once; the periodic scan covers a watch lost across a reconnection
		executor.scheduleWithFixedDelay(this::requestScan, 1, 1, TimeUnit.SECONDS);
	}

	/**
	 * A read of the shard watch failed (Curator's default logs it at ERROR with a trace): nothing is lost, the
	 * scan every second reads the nodes again, so one line at WARN while running, DEBUG once stopping.
	 */
	private void cacheFailed(Exception ex) {
		String message = "A read of the shard nodes under " + this.paths.root() + " failed (" + ex
				+ "); the scan every second reads them again";
		if (this.running) {
			logger.warn(message);
		}
		else {
			logger.debug(message);
		}
	}

	/** Become a member that shards are given to: an ephemeral node, re-created in each new session. */
	public synchronized void join() {
		PersistentNode node = new PersistentNode(this.client, CreateMode.EPHEMERAL, false,
				this.paths.member(this.election.participantId()), this.election.participantId().getBytes(StandardCharsets.UTF_8));
		node.start();
		this.member = node;
	}

	/** Stop being a member (tests: an owner the others take for lost while it still runs). */
	public synchronized void leave() {
		PersistentNode node = this.member;
		this.member = null;
		closeMember(node);
	}

	private void closeMember(@Nullable PersistentNode node) {
		if (node != null && !this.client.getZookeeperClient().isConnected()) {
			// ZooKeeper out of reach: closing deletes the node in the foreground and would wait out the client's
			// retries, holding up the stop; the node goes with the session, or when the close gets through
			Thread closing = new Thread(() -> closeQuietly(node), "zk-shard-member-close");
			closing.setDaemon(true);
			closing.start();
			return;
		}
		closeQuietly(node);
	}

	/** Wait (up to the drain timeout) for the shards running here, before leaving the members. */
	private void awaitShardsBeforeLeaving() {
		if (!this.runner.awaitIdle(this.drainTimeout)) {
			logger.warn("Leaving the shard members of " + this.paths.root() + " while shards still run here after "
					+ this.drainTimeout);
		}
	}

	private void requestScan() {
		ScheduledExecutorService executor = this.scans;
		if (!this.running || !this.joined || executor == null || !this.scanPending.compareAndSet(false, true)) {
			return;
		}
		try {
			executor.execute(() -> {
				this.scanPending.set(false);
				if (this.running) {
					this.runner.scan();
				}
			});
		}
		catch (RuntimeException ex) {
			this.scanPending.set(false);
		}
	}

	/** Stop claiming, wait (bounded) for the shards running here, then leave; nothing to do when never a member. */
	public void stop() {
		synchronized (this) {
			this.running = false;
			if (!this.joined) {
				this.runner.close();
				return;
			}
			this.joined = false;
		}
		ScheduledExecutorService executor = this.scans;
		if (executor != null) {
			executor.shutdown();
			try {
				// ZooKeeper out of reach: a scan caught in a read would only wait out the client's retries
				long wait = this.client.getZookeeperClient().isConnected() ? this.drainTimeout.toMillis() : 1_000;
				executor.awaitTermination(wait, TimeUnit.MILLISECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
		awaitShardsBeforeLeaving();
		this.runner.close();
		closeQuietly(this.cache);
		leave();
	}

	private static void closeQuietly(@Nullable AutoCloseable closeable) {
		if (closeable != null) {
			try {
				closeable.close();
			}
			catch (Exception ex) {
				logger.debug("Could not close " + closeable + ": " + ex);
			}
		}
	}

	public boolean isRunning() {
		return this.running;
	}

	/** How many shards a job has in force, or {@code null} when it is not sharded. */
	public @Nullable Integer shards(String jobName) {
		ShardSettings.Shards shards = this.settings.of(jobName);
		return (shards != null) ? shards.total() : null;
	}

	/** Why a job's shard settings were refused, or {@code null}. */
	public @Nullable String refusal(String jobName) {
		return this.settings.refusal(jobName);
	}

	/**
	 * Each sharded job's shards: the owners in force, and per recent fire time (newest first, at most
	 * {@code fires}) each shard's owner and run. Names instances and znodes, never shard parameters.
	 */
	public List<Map<String, Object>> describe(int fires) {
		List<Map<String, Object>> jobs = new ArrayList<>();
		try {
			for (String job : children(this.paths.jobs())) {
				String jobPath = this.paths.jobs() + "/" + job;
				Map<String, Object> view = new LinkedHashMap<>();
				view.put("job", ShardPaths.decode(job));
				view.put("owners", owners(jobPath + "/assignment"));
				List<String> names = new ArrayList<>(children(jobPath + "/fires"));
				names.sort(null);
				List<Map<String, Object>> recent = new ArrayList<>();
				for (int i = names.size() - 1; i >= 0 && recent.size() < fires; i--) {
					Map<String, Object> fire = describeFire(jobPath + "/fires/" + names.get(i));
					if (fire != null) {
						recent.add(fire);
					}
				}
				view.put("fires", recent);
				jobs.add(view);
			}
		}
		catch (Exception ex) {
			logger.debug("Could not read the sharded jobs under " + this.paths.root() + ": " + ex);
		}
		return jobs;
	}

	private @Nullable Map<String, Object> describeFire(String path) throws Exception {
		FireRecord fire;
		try {
			fire = FireRecord.parse(this.client.getData().forPath(path));
		}
		catch (KeeperException.NoNodeException ex) {
			return null;
		}
		if (fire == null) {
			return null;
		}
		Map<String, Object> view = new LinkedHashMap<>();
		view.put("fireTime", Instant.ofEpochMilli(fire.fireTime()).toString());
		view.put("trigger", fire.trigger());
		view.put("dispatcher", fire.dispatcher());
		List<Map<String, Object>> shards = new ArrayList<>();
		for (int i = 0; i < fire.total(); i++) {
			Map<String, Object> shard = new LinkedHashMap<>();
			shard.put("shard", i);
			shard.put("owner", fire.owners().get(i));
			Run run = null;
			try {
				run = Run.parse(this.client.getData().forPath(path + "/" + fire.claimName(i)));
			}
			catch (KeeperException.NoNodeException ex) {
				// not claimed (yet)
			}
			if (run != null) {
				shard.put("instance", run.instance());
				shard.put("start", Instant.ofEpochMilli(run.start()).toString());
				if (run.end() != null) {
					shard.put("end", Instant.ofEpochMilli(run.end()).toString());
					shard.put("outcome", run.outcome());
				}
				if (run.error() != null) {
					shard.put("error", run.error());
				}
			}
			if (Boolean.TRUE.equals(fire.recovering().get(i))) {
				shard.put("recovering", true);
			}
			else if (Boolean.TRUE.equals(fire.handedOver().get(i))) {
				shard.put("handedOver", true);
			}
			shards.add(shard);
		}
		view.put("shards", shards);
		return view;
	}

	private List<String> owners(String path) throws Exception {
		try {
			return ShardDispatcher.owners(this.client.getData().forPath(path));
		}
		catch (KeeperException.NoNodeException ex) {
			return List.of();
		}
	}

	private List<String> children(String path) throws Exception {
		try {
			return this.client.getChildren().forPath(path);
		}
		catch (KeeperException.NoNodeException ex) {
			return List.of();
		}
	}

}
