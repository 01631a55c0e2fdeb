/**
 * The public entry points of leader-gated jobs, above the election: {@link dev.zkspring.jobs.ZkJobs}
 * (operators' jobs: schedules and pauses from {@code zk.quartz.jobs.*}, run, pause and resume requests, history),
 * {@link dev.zkspring.jobs.JobRequester} (those requests from outside an application, for the operator's tool),
 * {@link dev.zkspring.jobs.ZkLeaderGroups} (the leader groups of {@code zk.leader.groups}),
 * {@link dev.zkspring.jobs.LeaderGatedSchedulerCustomizer} (gates Boot's Quartz scheduler),
 * {@link dev.zkspring.jobs.LeaderGatedSchedulerFactoryBean} (an application's own gated scheduler) and
 * {@link dev.zkspring.jobs.ZkShards} (sharded jobs). Each wires the parts that do the work and hands them what
 * they may do to an election beyond its public API (its records, a step back, through
 * {@code dev.zkspring.leader.term.ElectionAccess}).
 * <p>
 * May use: the election ({@code dev.zkspring.leader}), its parts {@code dev.zkspring.leader.term},
 * {@code dev.zkspring.leader.group}, {@code dev.zkspring.leader.jobs}, {@code dev.zkspring.leader.quartz},
 * {@code dev.zkspring.leader.shard}, and {@code dev.zkspring.client}, {@code dev.zkspring.config}'s event; nothing
 * in those packages uses this one (see {@code LeaderPackageDependencyTests}). Used by the auto-configuration, the
 * endpoint, the operator's tool and applications.
 */
@NullMarked
package dev.zkspring.jobs;

import org.jspecify.annotations.NullMarked;
