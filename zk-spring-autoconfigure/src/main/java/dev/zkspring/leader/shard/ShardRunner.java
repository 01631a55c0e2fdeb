package dev.zkspring.leader.shard;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;
import org.quartz.Job;
import org.quartz.JobDataMap;
import org.quartz.JobDetail;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.quartz.impl.JobExecutionContextImpl;
import org.quartz.spi.OperableTrigger;
import org.quartz.spi.TriggerFiredBundle;

import dev.zkspring.leader.ShardContext;
import dev.zkspring.leader.shard.FireRecord.Run;

/**
 * On each instance: finds the shards of recent fire times this instance owns, claims each in one
 * ZooKeeper transaction (its own member node exists, the dispatch node still has the version that named
 * it owner, and the claim node is new) and runs the job's shard; and hands over the shards of owners that
 * are gone, for jobs that request recovery. The claim node is created once per (fire time, shard), and
 * once more at most for a re-run after its owner was lost mid-run, so a shard runs once per fire time
 * and a deposed owner (one whose shard was handed over since it read the dispatch node) is refused.
 * Over 300 lines on purpose: the scan, the claim and the run share one account of what was tried and
 * what runs, and the guarantee is read in one place.
 */
public final class ShardRunner {

	private static final Log logger = LogFactory.getLog(ShardRunner.class);

	/** How late a shard may start on its first owner; a handed-over one starts whenever it is handed over. */
	static final Duration LATE = Duration.ofSeconds(60);

	/** Test seam: called on the scanning thread just before an instance claims a shard. */
	public static volatile @Nullable ClaimHook beforeClaim;

	/** Test seam: called on the scanning thread when a claim was refused (the instance no longer owned the shard). */
	public static volatile @Nullable ClaimHook onRefused;

	/** A test's view of one claim. */
	public interface ClaimHook {

		void claim(String instance, JobKey job, long fireTime, int shard);

	}

	private final CuratorFramework client;

	private final ShardPaths paths;

	/** This instance's participant id, known once the election started. */
	private final Supplier<String> instance;

	private final Supplier<@Nullable Scheduler> scheduler;

	private final ShardJobFactory jobs;

	private final ExecutorService pool = Executors.newCachedThreadPool((task) -> {
		Thread thread = new Thread(task, "zk-shard-run");
		thread.setDaemon(true);
		return thread;
	});

	/** Fire nodes whose every shard ended (or will not run): not read again. */
	private final Set<String> closed = ConcurrentHashMap.newKeySet();

	/** Claims tried, with the dispatch node version they checked: each tried once. */
	private final Set<String> attempted = ConcurrentHashMap.newKeySet();

	/** Fire nodes whose missed shard was logged already. */
	private final Set<String> warned = ConcurrentHashMap.newKeySet();

	/** Shards claimed here whose end is not recorded yet. */
	private final AtomicInteger running = new AtomicInteger();

	/** Shards whose job code runs here: a stop with ZooKeeper out of reach waits for these only. */
	private final AtomicInteger executing = new AtomicInteger();

	ShardRunner(CuratorFramework client, ShardPaths paths, Supplier<String> instance, Supplier<@Nullable Scheduler> scheduler,
			ShardJobFactory jobs) {
		this.client = client;
		this.paths = paths;
		this.instance = instance;
		this.scheduler = scheduler;
		this.jobs = jobs;
	}

	/** Look at every open fire time of every sharded job once. */
	void scan() {
		if (!this.client.getZookeeperClient().isConnected()) {
			// out of reach: a read would wait out the client's retries (and hold up a stop); the next scan looks
			return;
		}
		try {
			List<String> live = ShardDispatcher.live(this.client, this.paths);
			List<String> jobs;
			try {
				jobs = this.client.getChildren().forPath(this.paths.jobs());
			}
			catch (KeeperException.NoNodeException ex) {
				return;
			}
			Set<String> seen = new HashSet<>();
			for (String job : jobs) {
				String fires = this.paths.jobs() + "/" + job + "/fires";
				List<String> names;
				try {
					names = new ArrayList<>(this.client.getChildren().forPath(fires));
				}
				catch (KeeperException.NoNodeException ex) {
					continue;
				}
				names.sort(null);
				for (String name : names) {
					String path = fires + "/" + name;
					seen.add(path);
					if (!this.closed.contains(path)) {
						scanFire(path, live);
					}
				}
			}
			this.closed.retainAll(seen);
			this.attempted.removeIf((key) -> !seen.contains(key.substring(0, key.lastIndexOf('/'))));
			this.warned.retainAll(seen);
		}
		catch (Exception ex) {
			logger.debug("Could not scan the sharded jobs' fire times under " + this.paths.root() + ": " + ex);
		}
	}

	private void scanFire(String path, List<String> live) throws Exception {
		Stat stat = new Stat();
		FireRecord fire;
		Set<String> claims;
		try {
			fire = FireRecord.parse(this.client.getData().storingStatIn(stat).forPath(path));
			claims = new HashSet<>(this.client.getChildren().forPath(path));
		}
		catch (KeeperException.NoNodeException ex) {
			return;
		}
		if (fire == null) {
			logger.warn("Ignored the malformed dispatch node " + path);
			this.closed.add(path);
			return;
		}
		FireRecord next = fire;
		boolean open = false;
		long now = System.currentTimeMillis();
		for (int i = 0; i < fire.total(); i++) {
			String claim = fire.claimName(i);
			if (claims.contains(claim)) {
				Run run = readRun(path + "/" + claim);
				if (run != null && run.end() != null) {
					continue;
				}
				String runner = (run != null) ? run.instance() : fire.owners().get(i);
				if (fire.requestsRecovery() && !Boolean.TRUE.equals(fire.recovering().get(i)) && !live.contains(runner)) {
					if (!live.isEmpty()) {
						next = next.reassign(i, pick(live, next), true);
					}
					open = true;
				}
				else {
					// running, or lost mid-run with no recovery requested (counts as started)
					open = open || live.contains(runner);
				}
				continue;
			}
			String owner = fire.owners().get(i);
			boolean moved = Boolean.TRUE.equals(fire.handedOver().get(i)) || Boolean.TRUE.equals(fire.recovering().get(i));
			if (!moved && now - fire.fireTime() > LATE.toMillis()) {
				if (this.warned.add(path + "/" + i) && owner.equals(this.instance.get())) {
					logger.warn("Shard " + i + " of " + path + " was not started within " + LATE.toSeconds()
							+ " s of its fire time: it does not run");
				}
				continue;
			}
			if (owner.equals(this.instance.get())) {
				open = true;
				claim(path, stat.getVersion(), fire, i);
			}
			else if (!live.contains(owner)) {
				if (fire.requestsRecovery() && !live.isEmpty()) {
					next = next.reassign(i, pick(live, next), false);
					open = true;
				}
			}
			else {
				open = true;
			}
		}
		if (next != fire) {
			try {
				this.client.setData().withVersion(stat.getVersion()).forPath(path, next.toBytes());
				logger.info("Handed over shards of " + path + " whose owner is gone: " + next.owners());
			}
			catch (KeeperException.BadVersionException | KeeperException.NoNodeException ex) {
				// changed meanwhile: the change's event brings another scan
			}
		}
		if (!open) {
			this.closed.add(path);
		}
	}

	private @Nullable Run readRun(String path) throws Exception {
		try {
			return Run.parse(this.client.getData().forPath(path));
		}
		catch (KeeperException.NoNodeException ex) {
			return null;
		}
	}

	/** The live instance owning fewest shards of the fire time, first in sorted order on a tie. */
	private static String pick(List<String> live, FireRecord fire) {
		Map<String, Integer> load = new HashMap<>();
		live.forEach((member) -> load.put(member, 0));
		fire.owners().forEach((owner) -> load.computeIfPresent(owner, (member, count) -> count + 1));
		return ShardAssignment.least(new TreeSet<>(live), load);
	}

	private void claim(String path, int version, FireRecord fire, int index) {
		String claim = path + "/" + fire.claimName(index);
		if (!this.attempted.add(claim + "@" + version)) {
			return;
		}
		JobKey job = JobKey.jobKey(fire.job(), fire.group());
		ClaimHook hook = beforeClaim;
		if (hook != null) {
			hook.claim(this.instance.get(), job, fire.fireTime(), index);
		}
		try {
			this.client.transaction().forOperations(
					this.client.transactionOp().check().forPath(this.paths.member(this.instance.get())),
					this.client.transactionOp().check().withVersion(version).forPath(path),
					this.client.transactionOp().create().forPath(claim,
							new Run(this.instance.get(), System.currentTimeMillis(), null, null, null).toBytes()));
		}
		catch (KeeperException.NodeExistsException ex) {
			logger.debug("Shard " + index + " of " + path + " was claimed already");
			return;
		}
		catch (KeeperException.BadVersionException | KeeperException.NoNodeException ex) {
			logger.info("Refused to run shard " + index + " of " + path + ": this instance (" + this.instance.get()
					+ ") no longer owns it, or is no live member");
			ClaimHook refused = onRefused;
			if (refused != null) {
				refused.claim(this.instance.get(), job, fire.fireTime(), index);
			}
			return;
		}
		catch (Exception ex) {
			// unreachable: try again on the next scan
			this.attempted.remove(claim + "@" + version);
			return;
		}
		this.running.incrementAndGet();
		this.executing.incrementAndGet();
		try {
			this.pool.execute(() -> run(fire, index, claim, job));
		}
		catch (RuntimeException ex) {
			this.running.decrementAndGet();
			this.executing.decrementAndGet();
			logger.warn("Could not start shard " + index + " of " + path + " (" + ex + ")");
		}
	}

	private void run(FireRecord fire, int index, String claim, JobKey key) {
		long start = System.currentTimeMillis();
		String outcome = "OK";
		String error = null;
		try {
			Scheduler quartz = this.scheduler.get();
			JobDetail detail = (quartz != null) ? quartz.getJobDetail(key) : null;
			if (quartz == null || detail == null) {
				throw new IllegalStateException("no job " + key + " on this instance");
			}
			boolean recovering = Boolean.TRUE.equals(fire.recovering().get(index));
			TriggerFiredBundle bundle = new TriggerFiredBundle(detail, trigger(quartz, detail, fire), null, recovering,
					new Date(), new Date(fire.fireTime()), null, null);
			Job job = this.jobs.newShardJob(bundle, quartz);
			JobExecutionContextImpl context = new JobExecutionContextImpl(quartz, bundle, job);
			JobDataMap data = context.getMergedJobDataMap();
			data.put(ShardContext.INDEX_KEY, index);
			data.put(ShardContext.TOTAL_KEY, fire.total());
			data.put(ShardContext.PARAMETER_KEY, fire.parameters().get(index));
			data.put(ShardContext.FIRE_TIME_KEY, fire.fireTime());
			job.execute(context);
		}
		catch (Throwable ex) {
			outcome = "FAILED";
			error = ex.getClass().getName();
			logger.warn("Shard " + index + " of " + key + " (fire time " + fire.fireTime() + ") failed: " + error);
		}
		finally {
			this.executing.decrementAndGet();
			try {
				this.client.setData().forPath(claim, new Run(this.instance.get(), start, System.currentTimeMillis(), outcome, error).toBytes());
			}
			catch (Exception ex) {
				logger.debug("Could not record the end of " + claim + ": " + ex);
			}
			this.running.decrementAndGet();
		}
	}

	private static OperableTrigger trigger(Scheduler quartz, JobDetail detail, FireRecord fire) throws Exception {
		List<? extends Trigger> triggers = quartz.getTriggersOfJob(detail.getKey());
		if (!triggers.isEmpty() && triggers.get(0) instanceof OperableTrigger operable) {
			return operable;
		}
		return (OperableTrigger) TriggerBuilder.newTrigger().forJob(detail).startAt(new Date(fire.fireTime())).build();
	}

	/**
	 * Wait until no shard runs here and each run's end is recorded; whether so. With ZooKeeper out of reach
	 * only the job code is waited for: recording the end would wait out the client's retries, holding up a stop.
	 */
	boolean awaitIdle(Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (pending() > 0 && System.nanoTime() - deadline < 0) {
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
		}
		return pending() == 0;
	}

	private int pending() {
		return this.client.getZookeeperClient().isConnected() ? this.running.get() : this.executing.get();
	}

	void close() {
		this.pool.shutdown();
	}

}
