/**
 * Sharded jobs ({@code zk.quartz.jobs.<job>.shards}): each fire time of such a job runs each of its N
 * shards once fleet-wide, on the live instances. This package owns the shard settings and their
 * refusal, the assignment of shards to instances, the fire-time dispatch, the fenced claim of each
 * (fire time, shard) and the run of the job's shard on its owner, and {@link dev.zkspring.leader.shard.ShardContext},
 * the one type a job reads its shard from.
 * <p>
 * It may use the public API of {@code dev.zkspring.leader} (the election, {@code LeaderJobs}) and of
 * {@code dev.zkspring.client}; nothing in {@code dev.zkspring.leader} depends on it. The leader of the
 * job's election fires the trigger as for any gated job (so each fire time is started once, fenced by
 * its fire-time record); for a sharded job that firing only writes a dispatch node naming each shard's
 * owner, and each owner claims its shard in a ZooKeeper transaction checked against that node's version.
 */
@NullMarked
package dev.zkspring.leader.shard;

import org.jspecify.annotations.NullMarked;
