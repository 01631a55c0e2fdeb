/**
 * Distributed locks on ZooKeeper: the {@link dev.zkspring.lock.ZkLock} annotation, the
 * {@link dev.zkspring.lock.ZkLockTemplate} for programmatic use, and the per-JVM lock registry behind
 * both. See {@code LockRegistry} for the design: one ZooKeeper node per JVM per key, local FIFO queueing,
 * a bounded number of local hand-offs, and fencing tokens taken from ZooKeeper transaction ids.
 */
@NullMarked
package dev.zkspring.lock;

import org.jspecify.annotations.NullMarked;
