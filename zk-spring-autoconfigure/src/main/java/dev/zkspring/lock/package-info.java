/**
 * Distributed locks on ZooKeeper: the {@link dev.zkspring.lock.ZkLock} annotation, the
 * {@link dev.zkspring.lock.ZkLockTemplate} for programmatic use, and the per-JVM lock registry behind both.
 * Threads of one JVM queue locally (FIFO) behind one ZooKeeper node per key and hand the key to each
 * other without round trips, up to a bounded number of times while another JVM waits ({@code KeyLock});
 * fencing tokens are ZooKeeper transaction ids, free for the first holder of a turn ({@code JvmNode}).
 * Methods returning Mono, Flux or a CompletionStage are held until their result completes by a thread of
 * the template's own ({@code AsyncHold}), so the caller's thread never waits.
 * {@link dev.zkspring.lock.ZkLockProperties} binds {@code zk.lock.*}.
 */
@NullMarked
package dev.zkspring.lock;

import org.jspecify.annotations.NullMarked;
