/**
 * Distributed locks on ZooKeeper: the {@link dev.zkspring.lock.ZkLock} annotation, the
 * {@link dev.zkspring.lock.ZkLockTemplate} for programmatic use, and the per-JVM lock registry behind both.
 * Threads of one JVM queue locally (FIFO) behind one ZooKeeper node per key and hand the key to each
 * other without round trips, up to a bounded number of times while another JVM waits ({@code KeyLock});
 * fencing tokens are ZooKeeper transaction ids, free for the first holder of a turn ({@code JvmNode}).
 */
@NullMarked
package dev.zkspring.lock;

import org.jspecify.annotations.NullMarked;
