/**
 * This package is internal: not API, it may change in any release. The leader-gated Quartz scheduler behind
 * its public entry points {@code dev.zkspring.jobs.LeaderGatedSchedulerCustomizer} (Boot's scheduler) and
 * {@code dev.zkspring.jobs.LeaderGatedSchedulerFactoryBean} (an application's own):
 * {@link dev.zkspring.leader.quartz.SchedulerGate} starts the scheduler on a grant and stands it by on a
 * revocation; {@link dev.zkspring.leader.quartz.LeadershipTriggerListener} vetoes every firing while this
 * instance does not lead and records each allowed one's fire time first; on a grant,
 * {@link dev.zkspring.leader.quartz.FireTimeResume} moves triggers past the recorded fire times; triggers
 * scheduled at runtime are recorded and restored on a successor ({@link dev.zkspring.leader.quartz.RuntimeTriggers},
 * {@link dev.zkspring.leader.quartz.TriggerRecord}, {@link dev.zkspring.leader.quartz.TriggerRestore}); with
 * leader groups a gate holds its group's jobs where its election does not lead
 * ({@link dev.zkspring.leader.quartz.JobHold}).
 * <p>
 * May use: {@code dev.zkspring.leader.jobs}, {@code dev.zkspring.leader.group}, the election
 * ({@code dev.zkspring.leader}: its public API only), {@code dev.zkspring.leader.term},
 * {@code dev.zkspring.client}; never the entry points in {@code dev.zkspring.jobs}.
 */
@NullMarked
package dev.zkspring.leader.quartz;

import org.jspecify.annotations.NullMarked;
