/**
 * Leader election for the instances of one application: {@link dev.zkspring.leader.ZkLeaderElection}
 * holds a Curator leader latch, acts as leader only after confirming its own latch node in ZooKeeper,
 * and acts only while the client's session lease is valid for the session that confirmed it, so it
 * stops at once when the connection is in doubt and a process resuming from a freeze starts nothing;
 * the Quartz gate and {@link dev.zkspring.leader.LeaderOnly} run work only while it leads. The gate
 * records each trigger's last started fire time in ZooKeeper, fenced by the leadership, so a successor
 * resumes after it instead of replaying it. {@link dev.zkspring.leader.ZkJobs} lets operators change a
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
 * This package holds the election (its cycle, latch, events, {@code @LeaderOnly}) and every type
 * applications import. The parts above the election live in packages of their own, each internal and each
 * using only the ones below it: {@code dev.zkspring.leader.quartz} (the gate) uses
 * {@code dev.zkspring.leader.jobs} (operators' jobs), which uses {@code dev.zkspring.leader.group} (leader
 * groups), which uses this package's election; all of them, and the election, use
 * {@code dev.zkspring.leader.term} (a term and the records written under it), which uses only
 * {@code dev.zkspring.client}. Five public entry points stay here at the names applications (and the operator's
 * tool) know and are the only classes of this package that use the parts above it: {@link dev.zkspring.leader.ZkJobs},
 * {@link dev.zkspring.leader.JobRequester},
 * {@link dev.zkspring.leader.ZkLeaderGroups}, {@link dev.zkspring.leader.LeaderGatedSchedulerFactoryBean} and
 * {@link dev.zkspring.leader.LeaderGatedSchedulerCustomizer}; they hand those parts what they may do to an
 * election beyond its public API (its records, a step back), and no part uses them in return.
 * {@code LeaderPackageDependencyTests} checks these directions. {@link dev.zkspring.leader.ZkLeaderProperties} and
 * {@link dev.zkspring.leader.ZkQuartzProperties} bind {@code zk.leader.*} and {@code zk.quartz.*}.
 */
@NullMarked
package dev.zkspring.leader;

import org.jspecify.annotations.NullMarked;
