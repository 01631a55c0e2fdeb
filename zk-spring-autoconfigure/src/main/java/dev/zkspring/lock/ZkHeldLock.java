package dev.zkspring.lock;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * One lock this JVM holds, as the actuator endpoint shows it.
 * @param key the key as the caller gave it
 * @param mode the mode it was taken in
 * @param fencingToken the fencing token if the holder asked for it already, else {@code null}
 * @param since when the hold began
 * @param waitingThreads how many threads of this JVM are queued for the same key
 */
public record ZkHeldLock(String key, ZkLock.Mode mode, @Nullable Long fencingToken, Instant since,
		int waitingThreads) {

}
