package dev.zkspring.lock;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * {@code @ZkLock} on a method returning {@code Mono} or {@code Flux}: each subscription takes the lock on
 * the template's executor (never the subscribing thread), invokes the method once it is held, with the
 * hold in the Reactor context ({@link ZkLockReactorContext}), and gives the lock back on completion, error
 * or cancellation, before completion or error reach the subscriber. A lost lock cancels the method's
 * publisher and ends the result with a {@link ZkLockLostException}. Only loaded when a method returns a
 * Reactor type, so Reactor stays optional.
 */
final class ReactiveLocking {

	private ReactiveLocking() {
	}

	static Object lock(LockOperation operation, ZkLockTemplate template, String key, Duration wait,
			LockedBody body) {
		if (operation.kind == LockOperation.Kind.FLUX) {
			return Flux.usingWhen(acquire(operation, template, key, wait),
					(hold) -> Flux.from(invoke(body)).takeUntilOther(lost(hold))
						.concatWith(lostError(hold))
						.contextWrite((context) -> context.put(ZkLockReactorContext.KEY, hold.context())),
					ReactiveLocking::release, (hold, failure) -> release(hold), ReactiveLocking::cancel);
		}
		return Mono.usingWhen(acquire(operation, template, key, wait),
				(hold) -> Mono.from(invoke(body)).takeUntilOther(lost(hold))
					.switchIfEmpty(lostError(hold))
					.contextWrite((context) -> context.put(ZkLockReactorContext.KEY, hold.context())),
				ReactiveLocking::release, (hold, failure) -> release(hold), ReactiveLocking::cancel);
	}

	/** Emits the hold once taken (on the hold's thread); empty or a busy error when the key stays busy. */
	private static Mono<AsyncHold> acquire(LockOperation operation, ZkLockTemplate template, String key,
			Duration wait) {
		return Mono.<AsyncHold>create((sink) -> {
			AsyncHold hold = template.asyncHold(operation.fixedKey, key, operation.mode, wait, true);
			AtomicBoolean delivered = new AtomicBoolean();
			sink.onCancel(() -> {
				if (!delivered.get()) {
					hold.release();
				}
			});
			hold.acquired.whenComplete((context, failure) -> {
				if (failure != null) {
					sink.error(failure);
				}
				else if (context == null) {
					if (operation.onBusy == ZkLock.OnBusy.SKIP) {
						sink.success();
					}
					else {
						sink.error(new ZkLockBusyException(key, wait));
					}
				}
				else {
					delivered.set(true);
					sink.success(hold);
				}
			});
			hold.start();
		}).doOnDiscard(AsyncHold.class, AsyncHold::release);
	}

	private static Publisher<?> invoke(LockedBody body) {
		try {
			Object result = body.call();
			return (result != null) ? (Publisher<?>) result : Mono.empty();
		}
		catch (Throwable ex) {
			return Mono.error(ex);
		}
	}

	private static Mono<ZkLockLostException> lost(AsyncHold hold) {
		return Mono.fromFuture(hold.lost, true);
	}

	private static <T> Mono<T> lostError(AsyncHold hold) {
		return Mono.defer(() -> hold.lost.isDone() ? Mono.error(hold.lost.join()) : Mono.empty());
	}

	/** Give the lock back; completes once it is given back, so the next subscriber finds the key free. */
	private static Mono<@Nullable Void> release(AsyncHold hold) {
		return Mono.defer(() -> {
			hold.release();
			return Mono.fromFuture(hold.released, true);
		});
	}

	private static Mono<@Nullable Void> cancel(AsyncHold hold) {
		hold.release();
		return Mono.empty();
	}

}
