/**
 * Builds, starts and watches the one {@code CuratorFramework} of an application from
 * {@code ZkProperties}: retry, timeouts, namespace, digest auth with creator-only ACLs, TLS.
 * Connection-state changes become one log line and one {@link dev.zkspring.client.ZkConnectionStateChangedEvent} each;
 * the {@link dev.zkspring.client.SessionLease} says, without a round trip, whether the session is certainly alive now.
 */
@NullMarked
package dev.zkspring.client;

import org.jspecify.annotations.NullMarked;
