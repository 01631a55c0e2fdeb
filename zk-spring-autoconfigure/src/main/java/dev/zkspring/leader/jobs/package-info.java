/**
 * This package is internal: not API, it may change in any release. Leader-gated jobs as operators run them,
 * behind their public entry points {@code dev.zkspring.jobs.ZkJobs}
 * ({@link dev.zkspring.leader.jobs.JobOperations} does the work) and {@code dev.zkspring.jobs.JobRequester} (requests
 * from outside an application, {@link dev.zkspring.leader.jobs.JobRequestTree}): schedules and pauses from
 * {@code zk.quartz.jobs.*} ({@link dev.zkspring.leader.jobs.JobSchedules}), run, pause and resume requests
 * and their answers ({@link dev.zkspring.leader.jobs.JobRequests}), carried out once by the leader of the
 * job's election ({@link dev.zkspring.leader.jobs.JobLeaders}, {@link dev.zkspring.leader.jobs.RequestConsumer}),
 * each job's recent runs ({@link dev.zkspring.leader.jobs.JobHistory}) and the endpoint's view of them
 * ({@link dev.zkspring.leader.jobs.JobViews}); all kept beside the application's latch node.
 * <p>
 * May use: {@code dev.zkspring.leader.group}, the election ({@code dev.zkspring.leader}: its public API
 * only), {@code dev.zkspring.leader.term}, {@code dev.zkspring.client}; never {@code dev.zkspring.leader.quartz}
 * nor the entry points in {@code dev.zkspring.jobs}.
 */
@NullMarked
package dev.zkspring.leader.jobs;

import org.jspecify.annotations.NullMarked;
