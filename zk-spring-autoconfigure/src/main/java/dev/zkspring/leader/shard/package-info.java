/**
 * This package is internal: not API, it may change in any release. Sharded jobs
 * ({@code zk.quartz.jobs.<job>.shards}): each fire time of such a job runs each of its N shards once
 * fleet-wide, on the live instances. This package owns the shard settings and their
 * refusal, the assignment of shards to instances, the fire-time dispatch, the fenced claim of each
 * (fire time, shard) and the run of the job's shard on its owner; {@code dev.zkspring.jobs.ZkShards} is its
 * public entry point, and {@code dev.zkspring.leader.ShardContext} the one type a job reads its shard from.
 * <p>
 * It uses only the election's public API ({@code ZkLeaderElection}, {@code LeaderJobs}, {@code ShardContext}),
 * {@code dev.zkspring.client} and {@code dev.zkspring.config}'s event; only the entry
 * point {@code dev.zkspring.jobs.ZkShards} uses it, and it never uses {@code dev.zkspring.jobs} (see
 * {@code LeaderPackageDependencyTests}). The leader of the
 * job's election fires the trigger as for any gated job (so each fire time is started once, fenced by
 * its fire-time record); for a sharded job that firing only writes a dispatch node naming each shard's
 * owner, and each owner claims its shard in a ZooKeeper transaction checked against that node's version.
 */
@NullMarked
package dev.zkspring.leader.shard;

import org.jspecify.annotations.NullMarked;
