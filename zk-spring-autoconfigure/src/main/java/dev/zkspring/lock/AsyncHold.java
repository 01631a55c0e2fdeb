package dev.zkspring.lock;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;

import org.jspecify.annotations.Nullable;

/**
 * One hold for an asynchronous result (a Mono, a Flux, a CompletionStage), taken and given back by one
 * thread of the template's executor. The local lock and the thread's held-lock stack belong to the thread
 * that took the lock, so that thread also releases it: it waits, parked, until {@link #release()} is
 * asked from any thread (completion, error, cancellation), then releases, once. The caller's thread (an
 * event loop) never waits for ZooKeeper.
 */
final class AsyncHold {

	private final ZkLockTemplate template;

	private final String name;

	private final String key;

	private final ZkLock.Mode mode;

	private final Duration wait;

	private final boolean fetchToken;

	/** The hold, {@code null} when the key stayed busy, or the failure; completed on the hold's thread. */
	final CompletableFuture<@Nullable ZkLockContext> acquired = new CompletableFuture<>();

	/** Completed on the hold's thread once the lock is given back (or was never taken). */
	final CompletableFuture<@Nullable Void> released = new CompletableFuture<>();

	/** Completed when the lock is reported lost while held. */
	final CompletableFuture<ZkLockLostException> lost = new CompletableFuture<>();

	private final CompletableFuture<@Nullable Void> releaseAsked = new CompletableFuture<>();

	AsyncHold(ZkLockTemplate template, String name, String key, ZkLock.Mode mode, Duration wait, boolean fetchToken) {
		this.template = template;
		this.name = name;
		this.key = key;
		this.mode = mode;
		this.wait = wait;
		this.fetchToken = fetchToken;
	}

	/** Start taking the lock on the template's executor; register on {@link #acquired} before. */
	void start() {
		try {
			this.template.asyncExecutor().execute(this::run);
		}
		catch (RejectedExecutionException ex) {
			this.released.complete(null);
			this.acquired.completeExceptionally(new ZkLockUnavailableException(this.key,
					"Lock '" + this.key + "' cannot be taken: the lock template is shut down.", ex));
		}
	}

	/** Give the lock back (or, still waiting, give it back as soon as it is taken); any thread, any number of times. */
	void release() {
		this.releaseAsked.complete(null);
	}

	/** The hold, once {@link #acquired} completed with one. */
	ZkLockContext context() {
		ZkLockContext context = this.acquired.getNow(null);
		if (context == null) {
			throw new IllegalStateException("Lock '" + this.key + "' is not held");
		}
		return context;
	}

	private void run() {
		ZkLockContext context;
		try {
			context = this.template.acquire(this.name, this.key, this.mode, this.wait);
			if (context != null && this.fetchToken) {
				fetchToken(context);
			}
		}
		catch (RuntimeException | Error ex) {
			this.released.complete(null);
			this.acquired.completeExceptionally(ex);
			return;
		}
		if (context == null) {
			this.released.complete(null);
			this.acquired.complete(null);
			return;
		}
		long acquiredAt = System.nanoTime();
		try {
			context.onLoss(() -> this.lost.complete(new ZkLockLostException(this.key, "Lock '" + this.key + "' ("
					+ context.getPath() + ") was lost while the asynchronous result was running (the ZooKeeper "
					+ "session is in doubt or gone, or the lock node was deleted).", null)));
			this.acquired.complete(context);
			awaitReleaseAsked();
		}
		finally {
			try {
				this.template.release(this.name, context, acquiredAt);
			}
			finally {
				this.released.complete(null);
			}
		}
	}

	/** The token is read here, off the caller's thread: a local hand-off costs a round trip for it. */
	private void fetchToken(ZkLockContext context) {
		try {
			context.getFencingToken();
		}
		catch (RuntimeException | Error ex) {
			this.template.release(this.name, context, System.nanoTime());
			throw ex;
		}
	}

	/**
	 * Park until the release is asked. An interrupt (zk.lock.interrupt-on-loss) is meant for a body, and
	 * this thread runs none while it waits: it goes on waiting, and the loss reaches the result instead.
	 */
	private void awaitReleaseAsked() {
		while (true) {
			try {
				this.releaseAsked.get();
				return;
			}
			catch (InterruptedException ex) {
				// keep waiting: the release is what ends the hold
			}
			catch (ExecutionException ex) {
				return;
			}
		}
	}

}
