package dev.zkspring.lock;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * Wraps every lock call so an instrumentation (Micrometer Observations, {@code dev.zkspring.observation})
 * can time the wait and the hold and put the guarded body inside its scope, without the lock depending on
 * Micrometer. It sees the lock's declared name (the {@code @ZkLock} key expression, the method when the
 * key is fixed, or {@value ZkLockTemplate#TEMPLATE_LOCK_NAME}), never a resolved key.
 */
public interface ZkLockInstrumentation {

	/** Instruments nothing. */
	ZkLockInstrumentation NONE = (name, mode, wait) -> Attempt.NONE;

	/**
	 * A lock call starts waiting, on the caller's thread (or the template's thread for asynchronous results).
	 * @param name the declared name, never the key
	 * @param mode the mode asked for
	 * @param wait how long the call may wait
	 * @return the attempt, told once how it ended
	 */
	Attempt acquiring(String name, ZkLock.Mode mode, Duration wait);

	/** How an attempt to take a lock ended. */
	enum Outcome {

		/** Taken (and still held when the body starts). */
		ACQUIRED,
		/** Still busy with no wait allowed (a wait of zero). */
		BUSY,
		/** Still busy when the wait ran out. */
		TIMED_OUT,
		/** Taken but lost before the body could start. */
		LOST,
		/** The thread was interrupted while waiting. */
		INTERRUPTED,
		/** ZooKeeper could not be reached, or failed. */
		UNAVAILABLE

	}

	/** One attempt to take a lock. */
	interface Attempt {

		/** Observes nothing. */
		Attempt NONE = new Attempt() {

			@Override
			public void ended(Outcome outcome, @Nullable Throwable error) {
			}

			@Override
			public Hold holding() {
				return Hold.NONE;
			}

		};

		/** The attempt ended; called once. */
		void ended(Outcome outcome, @Nullable Throwable error);

		/** The lock is held (after {@link Outcome#ACQUIRED}): the hold starts now. */
		Hold holding();

	}

	/** One hold of a lock, from taking it to giving it back. */
	interface Hold {

		/** Observes nothing. */
		Hold NONE = new Hold() {

			@Override
			public Scope openScope() {
				return () -> {
				};
			}

			@Override
			public void released(@Nullable Throwable error, boolean lost) {
			}

		};

		/** Make the hold current on this thread while the guarded body runs (closed on the same thread). */
		Scope openScope();

		/** The lock was given back; {@code error} is what the body threw, {@code lost} whether the hold was lost. */
		void released(@Nullable Throwable error, boolean lost);

	}

	/** A hold made current on one thread; closing it throws nothing. */
	interface Scope extends AutoCloseable {

		@Override
		void close();

	}

}
