/**
 * Builds, starts and watches the one {@code CuratorFramework} of an application from
 * {@link dev.zkspring.client.ZkClientSettings}: retry, timeouts, namespace, digest auth with creator-only
 * ACLs on the nodes it owns ({@link dev.zkspring.client.OwnedPaths}), TLS.
 * Connection-state changes become one log line and one {@link dev.zkspring.client.ZkConnectionStateChangedEvent} each;
 * the {@link dev.zkspring.client.SessionLease} says, without a round trip, whether the session is certainly alive now.
 * {@link dev.zkspring.client.ZkClientProperties} binds the {@code zk.*} settings of the connection.
 */
@NullMarked
package dev.zkspring.client;

import org.jspecify.annotations.NullMarked;
