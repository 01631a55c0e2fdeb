/**
 * This package is internal: not API, it may change in any release. One leadership term of an election
 * ({@link dev.zkspring.leader.term.Term}) and what the election keeps in ZooKeeper beside its latch node
 * under it, each write fenced by the term (one transaction with a check of the latch node's data version):
 * the last fire time per trigger, the executions of jobs requesting recovery and their re-run on a grant
 * ({@link dev.zkspring.leader.term.LeaderRecords}); {@link dev.zkspring.leader.term.Drainable}, the work a
 * leader drains before it hands its term over; and {@link dev.zkspring.leader.term.ElectionAccess}, what the
 * election hands the entry points in {@code dev.zkspring.jobs} beyond its public API (its records, a step back),
 * installed by the election's class so that this package never names it.
 * <p>
 * Owned by {@code dev.zkspring.leader.ZkLeaderElection}, which creates one {@code LeaderRecords} and hands it
 * its terms, epochs and lease. May use: {@code dev.zkspring.client}, Quartz and Curator; never
 * {@code dev.zkspring.leader}, the packages above it nor {@code dev.zkspring.jobs}.
 */
@NullMarked
package dev.zkspring.leader.term;

import org.jspecify.annotations.NullMarked;
