package dev.zkspring.refresh;

import java.util.concurrent.locks.StampedLock;
import java.util.function.Supplier;

/**
 * Lets code read several refreshed values as one consistent set. A refresh writes plain fields one
 * after another, so a reader running during those writes can see some old and some new values; a
 * reader passed to {@link #read(Supplier)} sees all of one refresh or all of the next. Reading never
 * takes a lock in the common case: it retries when a refresh wrote meanwhile.
 */
public final class ConsistentReads {

	private static final int OPTIMISTIC_ATTEMPTS = 64;

	private final StampedLock lock = new StampedLock();

	private volatile @org.jspecify.annotations.Nullable Thread writer;

	ConsistentReads() {
	}

	/**
	 * Run a reader of refreshed values so it sees no refresh half-applied. The reader may run more
	 * than once, so it must not have side effects.
	 * @param <T> what the reader returns
	 * @param reader reads the values, typically into a record
	 * @return what the reader returned on a run that no refresh overlapped
	 */
	public <T> T read(Supplier<T> reader) {
		if (this.writer == Thread.currentThread()) {
			return reader.get();
		}
		for (int attempt = 0; attempt < OPTIMISTIC_ATTEMPTS; attempt++) {
			long stamp = this.lock.tryOptimisticRead();
			if (stamp != 0) {
				try {
					T value = reader.get();
					if (this.lock.validate(stamp)) {
						return value;
					}
				}
				catch (RuntimeException ex) {
					if (this.lock.validate(stamp)) {
						throw ex;
					}
				}
			}
			Thread.onSpinWait();
		}
		// a refresh is writing right now: wait for its writes, never for its validation
		long stamp = this.lock.readLock();
		try {
			return reader.get();
		}
		finally {
			this.lock.unlockRead(stamp);
		}
	}

	/** Run the writes of one refresh, so no {@link #read} overlaps them. */
	void write(Runnable writes) {
		long stamp = this.lock.writeLock();
		this.writer = Thread.currentThread();
		try {
			writes.run();
		}
		finally {
			this.writer = null;
			this.lock.unlockWrite(stamp);
		}
	}

}
