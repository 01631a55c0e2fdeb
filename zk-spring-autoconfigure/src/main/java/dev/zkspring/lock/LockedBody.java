package dev.zkspring.lock;

import org.jspecify.annotations.Nullable;

/** The rest of a {@code @ZkLock} call, run once the lock is held: for results awaited after the method returns. */
@FunctionalInterface
interface LockedBody {

	@Nullable Object call() throws Throwable;

}
