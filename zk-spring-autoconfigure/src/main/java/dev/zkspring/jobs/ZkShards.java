package dev.zkspring.jobs;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;
import org.quartz.Scheduler;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationListener;
import org.springframework.context.SmartLifecycle;

import dev.zkspring.config.ZkConfigChangedEvent;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.leader.shard.ShardOperations;

/**
 * Sharded jobs ({@code zk.quartz.jobs.<job>.shards}) on Boot's gated scheduler, exists so each fire time of
 * such a job runs each of its shards once across the live instances: this instance is a member shards are
 * given to, the leader's firing of a sharded job names each shard's owner, owners claim and run their
 * shards, and the shards of lost instances are handed over. The public entry point of the
 * {@code dev.zkspring.leader.shard} package, which does the work.
 */
public final class ZkShards implements SmartLifecycle, SmartInitializingSingleton, ApplicationListener<ZkConfigChangedEvent> {

	private final ShardOperations operations;

	/**
	 * @param client the application's client
	 * @param election the application's election: shards live beside its latch node, members use its participant id
	 * @param scheduler the gated scheduler (Boot's), whose job factory this replaces; may answer {@code null}
	 * @param context the application context, for Spring's job factory
	 * @param drainTimeout how long a graceful stop waits for the shards running here
	 */
	public ZkShards(CuratorFramework client, ZkLeaderElection election, Supplier<@Nullable Scheduler> scheduler,
			ApplicationContext context, Duration drainTimeout) {
		this.operations = new ShardOperations(client, election, scheduler, context, drainTimeout);
	}

	/** What does the work; tests reach it through here. */
	ShardOperations operations() {
		return this.operations;
	}

	@Override
	public void afterSingletonsInstantiated() {
		this.operations.attachScheduler();
	}

	@Override
	public void onApplicationEvent(ZkConfigChangedEvent event) {
		this.operations.configurationChanged();
	}

	@Override
	public void start() {
		this.operations.start();
	}

	@Override
	public void stop() {
		this.operations.stop();
	}

	@Override
	public boolean isRunning() {
		return this.operations.isRunning();
	}

	/** Started just before the election, stopped just after it: a leader fires only with its member node in place. */
	@Override
	public int getPhase() {
		return ZkLeaderElection.PHASE - 1;
	}

	/** Why a job's shard settings were refused, or {@code null}. */
	public @Nullable String refusal(String jobName) {
		return this.operations.refusal(jobName);
	}

	/** How many shards a job has in force, or {@code null} when it is not sharded (for the fleet node). */
	public @Nullable Integer shards(String jobName) {
		return this.operations.shards(jobName);
	}

	/**
	 * Each sharded job's shards: the owners in force, and per recent fire time (newest first, at most
	 * {@code fires}) each shard's owner and run. Names instances and znodes, never shard parameters.
	 * @param fires how many recent fire times to show per job
	 * @return one map per sharded job
	 */
	public List<Map<String, Object>> describe(int fires) {
		return this.operations.describe(fires);
	}

}
