package dev.zkspring.lock;

import java.time.Duration;
import java.time.Instant;

/**
 * Told about every lock call, so metrics can count and time them without the lock depending on a
 * metrics library. {@code name} is the lock's name, never a resolved key: the {@code @ZkLock} key
 * expression (or the method when the key is fixed), or {@value ZkLockTemplate#TEMPLATE_LOCK_NAME} for
 * {@link ZkLockTemplate} calls. Called on the thread that takes the lock (the caller's, or the template's
 * executor for methods returning Mono, Flux or CompletionStage); keep it quick.
 */
public interface ZkLockObserver {

	/** The lock was taken after waiting {@code waited}. */
	default void acquired(String name, ZkLock.Mode mode, Duration waited) {
	}

	/** The key stayed busy for the whole wait. */
	default void busy(String name, ZkLock.Mode mode, Duration waited) {
	}

	/** ZooKeeper could not be reached, or failed, while taking the lock. */
	default void unavailable(String name, ZkLock.Mode mode, Duration waited) {
	}

	/** The body ran holding the lock for {@code held} and the lock was released. */
	default void released(String name, ZkLock.Mode mode, Duration held) {
	}

	/**
	 * The same release with the resolved key, for a per-instance history of holds such as the fleet node's,
	 * which lists the keys held (as the {@code zookeeper} endpoint does). Never tag a meter with it: keys are
	 * unbounded and may hold user data. The hold ran from {@code start} to {@code end}, the moment the holder let
	 * go, before a waiting thread of this JVM is handed the key: one key's consecutive holds never overlap.
	 */
	default void releasedKey(String key, ZkLock.Mode mode, Instant start, Instant end) {
	}

}
