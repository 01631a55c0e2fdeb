package dev.zkspring.lock;

import java.util.NoSuchElementException;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * What {@link ZkLockTemplate#tryExecute} did: ran the body holding the key (with its result, which may
 * be {@code null}), or did not run it because the key stayed busy. Exists so a busy key and a body that
 * returned {@code null} are told apart.
 * @param <T> the body's result type
 */
public final class ZkLockResult<T> {

	private static final ZkLockResult<?> BUSY = new ZkLockResult<>(false, null);

	private final boolean acquired;

	private final @Nullable T value;

	private ZkLockResult(boolean acquired, @Nullable T value) {
		this.acquired = acquired;
		this.value = value;
	}

	static <T> ZkLockResult<T> ran(@Nullable T value) {
		return new ZkLockResult<>(true, value);
	}

	@SuppressWarnings("unchecked")
	static <T> ZkLockResult<T> busy() {
		return (ZkLockResult<T>) BUSY;
	}

	/** Whether the key was taken and the body ran. */
	public boolean isAcquired() {
		return this.acquired;
	}

	/** Whether the key stayed busy for the whole wait, so the body did not run. */
	public boolean isBusy() {
		return !this.acquired;
	}

	/**
	 * The body's result.
	 * @return what the body returned, possibly {@code null}
	 * @throws NoSuchElementException when the key was busy and the body did not run
	 */
	public @Nullable T get() {
		if (!this.acquired) {
			throw new NoSuchElementException("The key was busy; the body did not run.");
		}
		return this.value;
	}

	/** The body's result, or {@code other} when the key was busy. */
	public @Nullable T orElse(@Nullable T other) {
		return this.acquired ? this.value : other;
	}

	/** The body's result as an optional: empty when the key was busy <em>or</em> the body returned null. */
	public Optional<T> toOptional() {
		return Optional.ofNullable(this.value);
	}

	@Override
	public String toString() {
		return this.acquired ? "ZkLockResult[ran]" : "ZkLockResult[busy]";
	}

}
