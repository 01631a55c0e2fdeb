/**
 * Leader election for the instances of one application: {@link dev.zkspring.leader.ZkLeaderElection}
 * holds a Curator leader latch, acts as leader only after confirming its own latch node in ZooKeeper,
 * and acts only while the client's session lease is valid for the session that confirmed it, so it
 * stops at once when the connection is in doubt and a process resuming from a freeze starts nothing;
 * the Quartz gate and {@link dev.zkspring.leader.LeaderOnly} run work only while it leads. The gate
 * records each trigger's last started fire time in ZooKeeper, fenced by the leadership, so a successor
 * resumes after it instead of replaying it. {@link dev.zkspring.jobs.ZkJobs} lets operators change a
 * gated job's schedule from the configuration, run, pause or resume it from any instance, and see its
 * last runs, all kept beside the latch node.
 * <p>
 * Each leadership has an <em>epoch</em>, usable as a fencing token: when an instance becomes leader it
 * writes its participant id to the group's latch node ({@code {zk.leader.root}/{zk.leader.group}}) in
 * one ZooKeeper transaction that also checks its own latch node still exists, and the epoch is the
 * zxid of that write. ZooKeeper orders every write by zxid, so each new leadership, on whichever
 * instance, has a strictly greater epoch than every one before it; a leadership that could not be
 * confirmed writes nothing and gets no epoch.
 * <p>
 * This package holds the election (its cycle, latch, events, reasons, {@code @LeaderOnly}, the revoke policy) and
 * the small public types the parts above it and applications share ({@link dev.zkspring.leader.LeaderJobs},
 * {@link dev.zkspring.leader.JobAnswer}, {@link dev.zkspring.leader.ElectionGroup},
 * {@link dev.zkspring.leader.ShardContext}). The parts above the election live in packages of their own, each
 * internal and each using only the ones below it: {@code dev.zkspring.leader.quartz} (the gate) uses
 * {@code dev.zkspring.leader.jobs} (operators' jobs), which uses {@code dev.zkspring.leader.group} (leader
 * groups), which uses this package's election; {@code dev.zkspring.leader.shard} (sharded jobs) uses only its
 * public API; all of them, and the election, use {@code dev.zkspring.leader.term} (a term and the records written
 * under it), which uses only {@code dev.zkspring.client}. The public entry points that wire those parts
 * ({@code ZkJobs}, {@code JobRequester}, {@code ZkLeaderGroups}, the gated scheduler's customizer and factory
 * bean, {@code ZkShards}) live above, in {@code dev.zkspring.jobs}; the election hands them what the parts may do
 * to it beyond its public API (its records, a step back) through {@code dev.zkspring.leader.term.ElectionAccess}.
 * <p>
 * May use: {@code dev.zkspring.leader.term}, {@code dev.zkspring.client}; never its parts above the election nor
 * {@code dev.zkspring.jobs}. {@code LeaderPackageDependencyTests} and {@code PackageCycleTests} check these
 * directions.
 * {@link dev.zkspring.leader.ZkLeaderProperties} and {@link dev.zkspring.leader.ZkQuartzProperties} bind
 * {@code zk.leader.*} and {@code zk.quartz.*}.
 */
@NullMarked
package dev.zkspring.leader;

import org.jspecify.annotations.NullMarked;
