/**
 * This package is internal: not API, it may change in any release. The leader groups of
 * {@code zk.leader.groups} behind their public entry point {@code dev.zkspring.jobs.ZkLeaderGroups}: the
 * balancer that spreads the groups over the participants ({@link dev.zkspring.leader.group.GroupBalancer}),
 * and the groups' elections as the job operations see them
 * ({@link dev.zkspring.leader.group.GroupElections}). Sharded jobs go beside it, in a package of their own.
 * <p>
 * May use: the election ({@code dev.zkspring.leader}: its public API only), {@code dev.zkspring.leader.term},
 * {@code dev.zkspring.client}; never {@code dev.zkspring.leader.jobs}, {@code dev.zkspring.leader.quartz} nor the
 * entry points in {@code dev.zkspring.jobs}.
 */
@NullMarked
package dev.zkspring.leader.group;

import org.jspecify.annotations.NullMarked;
