package dev.zkspring.lock;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReference;

import org.jspecify.annotations.Nullable;

/**
 * {@code @ZkLock} on a method returning {@code CompletableFuture} or {@code CompletionStage}: the caller gets
 * a future at once; the lock is taken on the template's executor, the method runs there once it is held,
 * and the lock is given back when the method's result completes (or the caller cancels), before the
 * caller's future completes.
 */
final class StageLocking {

	private StageLocking() {
	}

	static CompletableFuture<@Nullable Object> lock(LockOperation operation, ZkLockTemplate template, String key,
			Duration wait, LockedBody body) {
		CompletableFuture<@Nullable Object> result = new CompletableFuture<>();
		AtomicReference<@Nullable CompletionStage<?>> running = new AtomicReference<>();
		AsyncHold hold = template.asyncHold(operation.fixedKey, key, operation.mode, wait, false);
		hold.acquired.whenComplete((context, failure) -> {
			if (failure != null) {
				result.completeExceptionally(failure);
			}
			else if (context == null) {
				if (operation.onBusy == ZkLock.OnBusy.SKIP) {
					result.complete(null);
				}
				else {
					result.completeExceptionally(new ZkLockBusyException(key, wait));
				}
			}
			else if (!result.isDone()) {
				run(hold, body, result, running);
			}
		});
		result.whenComplete((value, failure) -> {
			if (result.isCancelled()) {
				hold.release();
				CompletionStage<?> stage = running.get();
				if (stage != null) {
					stage.toCompletableFuture().cancel(false);
				}
			}
		});
		hold.start();
		return result;
	}

	private static void run(AsyncHold hold, LockedBody body, CompletableFuture<@Nullable Object> result,
			AtomicReference<@Nullable CompletionStage<?>> running) {
		CompletionStage<?> stage;
		try {
			stage = (CompletionStage<?>) body.call();
		}
		catch (Throwable ex) {
			finish(hold, result, null, ex);
			return;
		}
		if (stage == null) {
			finish(hold, result, null, null);
			return;
		}
		running.set(stage);
		stage.whenComplete((value, failure) -> finish(hold, result, value, failure));
	}

	/** Give the lock back, then complete the caller's future: whoever it calls next finds the key free. */
	private static void finish(AsyncHold hold, CompletableFuture<@Nullable Object> result, @Nullable Object value,
			@Nullable Throwable failure) {
		hold.release();
		hold.released.whenComplete((ignored, releaseFailure) -> {
			if (failure != null) {
				result.completeExceptionally(failure);
			}
			else {
				result.complete(value);
			}
		});
	}

}
