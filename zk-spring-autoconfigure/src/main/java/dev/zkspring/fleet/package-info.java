/**
 * The fleet view: each instance publishes what it applied, refused, leads and holds in an ephemeral
 * node of its own, and any instance can list them all. {@link dev.zkspring.fleet.ZkFleet} is the
 * public face; how the node is kept and what goes in it is package-private.
 * {@link dev.zkspring.fleet.ZkFleetProperties} binds {@code zk.fleet.*}.
 */
@NullMarked
package dev.zkspring.fleet;

import org.jspecify.annotations.NullMarked;
