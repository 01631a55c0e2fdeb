package dev.zkspring.lock;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;

import org.jspecify.annotations.Nullable;

import org.springframework.expression.Expression;

/** One {@code @ZkLock} method, checked and compiled once: its key expression, wait, mode and busy policy. */
final class LockOperation {

	final Method method;

	final String description;

	final @Nullable Expression key;

	final String fixedKey;

	/** The annotation's wait, or {@code null} for {@code zk.lock.default-wait}. */
	final @Nullable Duration wait;

	final ZkLock.Mode mode;

	final ZkLock.OnBusy onBusy;

	/** How the method's result is awaited before the lock is released. */
	final Kind kind;

	LockOperation(Method method, String description, @Nullable Expression key, String fixedKey,
			@Nullable Duration wait, ZkLock.Mode mode, ZkLock.OnBusy onBusy, Kind kind) {
		this.method = method;
		this.description = description;
		this.key = key;
		this.fixedKey = fixedKey;
		this.wait = wait;
		this.mode = mode;
		this.onBusy = onBusy;
		this.kind = kind;
	}

	/** What a skipped call returns: an empty optional, or null. */
	@Nullable Object skipped() {
		Class<?> type = this.method.getReturnType();
		if (type == Optional.class) {
			return Optional.empty();
		}
		if (type == OptionalInt.class) {
			return OptionalInt.empty();
		}
		if (type == OptionalLong.class) {
			return OptionalLong.empty();
		}
		if (type == OptionalDouble.class) {
			return OptionalDouble.empty();
		}
		return null;
	}

	/**
	 * What the method returns, as far as the lock is concerned: a plain value (released when the method
	 * returns), a Reactor {@code Mono} or {@code Flux}, or a {@code CompletionStage} (released when the
	 * result completes). Reactor types are told by name, so nothing loads Reactor unless a method uses it.
	 */
	enum Kind {

		SYNC, MONO, FLUX, COMPLETION_STAGE

	}

}
