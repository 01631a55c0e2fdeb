package dev.zkspring.lock;

import java.lang.reflect.UndeclaredThrowableException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.common.PathUtils;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.ApplicationEventPublisher;

import dev.zkspring.client.OwnedPaths;
import dev.zkspring.client.PeerWatch;
import dev.zkspring.client.SessionLease;
import dev.zkspring.client.ZkStartupException;

/**
 * Programmatic distributed locks: runs a body while holding a key, for code where the key or the wait
 * is only known at run time. Same semantics as {@link ZkLock}, which uses the same locks.
 * It runs past 300 lines because the path every kind of lock call shares (acquire, release, the observers
 * and the instrumentation) stays in one place, beside the public API that uses it.
 */
public class ZkLockTemplate implements DisposableBean {

	private static final Log logger = LogFactory.getLog(ZkLockTemplate.class);

	/** The name {@link ZkLockObserver}s see for calls through the template, whose keys are not names. */
	public static final String TEMPLATE_LOCK_NAME = "template";

	/** How the threads that take and hold the locks of reactive and CompletionStage methods are named. */
	public static final String ASYNC_THREAD_PREFIX = "zk-lock-async-";

	private final LockRegistry registry;

	private final List<ZkLockObserver> observers = new CopyOnWriteArrayList<>();

	private final Duration defaultWait;

	private volatile ZkLockInstrumentation instrumentation = ZkLockInstrumentation.NONE;

	/**
	 * Takes and holds the locks of asynchronous results (Mono, Flux, CompletionStage): one thread per hold
	 * in flight, parked while the result runs, so the caller's thread (an event loop) never waits.
	 */
	private final ExecutorService asyncExecutor = Executors.newCachedThreadPool(new ThreadFactory() {

		private final AtomicInteger count = new AtomicInteger();

		@Override
		public Thread newThread(Runnable task) {
			Thread thread = new Thread(task, ASYNC_THREAD_PREFIX + this.count.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		}

	});

	/**
	 * Create a template on the application's client.
	 * @param client a started client; each client (session) is one "JVM" to the lock
	 * @param lease the client's session lease: no holder is admitted outside it
	 * @param settings the {@code zk.lock.*} settings
	 * @param publisher where {@link ZkLockLostEvent}s go (from a thread of the template's own)
	 * @throws ZkStartupException naming the property when a setting cannot work
	 */
	public ZkLockTemplate(CuratorFramework client, SessionLease lease, Settings settings,
			ApplicationEventPublisher publisher) {
		this.defaultWait = validWait(settings.defaultWait());
		if (settings.maxLocalHandoffs() < 0) {
			throw new ZkStartupException("zk.lock.max-local-handoffs is " + settings.maxLocalHandoffs() + ".",
					"Set zk.lock.max-local-handoffs to 0 or more (0 checks for waiting JVMs on every local hand-off).");
		}
		this.registry = new LockRegistry(client, lease, validRoot(settings.root()), settings.maxLocalHandoffs(),
				settings.interruptOnLoss(), publisher);
		OwnedPaths.ensureAtStartup(client, this.registry.root);
	}

	/**
	 * Watch the process that holds a key while this JVM waits for it (the crash detector), so that a holder
	 * that dies hands the key on at once rather than after its session times out.
	 * @param peers the watcher, {@link PeerWatch#NONE} for none
	 */
	public void watchPeersWith(PeerWatch peers) {
		this.registry.peers = peers;
	}

	/**
	 * Run the body holding {@code key} exclusively. A checked exception of the body is rethrown wrapped in
	 * an {@link UndeclaredThrowableException}.
	 * @throws ZkLockBusyException when the key stays busy for {@code wait}
	 * @throws ZkLockUnavailableException when ZooKeeper cannot be asked
	 * @throws ZkLockLostException when the lock was lost before the body could start
	 * @throws ZkLockInterruptedException when the thread is interrupted while waiting
	 */
	public <T> @Nullable T execute(String key, Duration wait, Callable<T> body) {
		return execute(key, ZkLock.Mode.MUTEX, wait, body);
	}

	/**
	 * Run the body holding {@code key} in the given mode.
	 * @throws ZkLockBusyException when the key stays busy for {@code wait}
	 * @throws ZkLockUnavailableException when ZooKeeper cannot be asked
	 * @throws ZkLockLostException when the lock was lost before the body could start
	 * @throws ZkLockInterruptedException when the thread is interrupted while waiting
	 */
	public <T> @Nullable T execute(String key, ZkLock.Mode mode, Duration wait, Callable<T> body) {
		ZkLockContext context = acquire(TEMPLATE_LOCK_NAME, key, mode, wait);
		if (context == null) {
			throw new ZkLockBusyException(key, wait);
		}
		return run(context, body);
	}

	/**
	 * Run the body holding {@code key} exclusively, or not at all when it stays busy. Other failures
	 * throw as {@link #execute} does.
	 * @return whether the body ran, and its result (which may be {@code null})
	 */
	public <T> ZkLockResult<T> tryExecute(String key, Duration wait, Callable<T> body) {
		return tryExecute(key, ZkLock.Mode.MUTEX, wait, body);
	}

	/**
	 * Run the body holding {@code key} in the given mode, or not at all when it stays busy.
	 * @return whether the body ran, and its result (which may be {@code null})
	 */
	public <T> ZkLockResult<T> tryExecute(String key, ZkLock.Mode mode, Duration wait, Callable<T> body) {
		ZkLockContext context = acquire(TEMPLATE_LOCK_NAME, key, mode, wait);
		return (context != null) ? ZkLockResult.ran(run(context, body)) : ZkLockResult.busy();
	}

	/** The wait used when {@code @ZkLock} names none ({@code zk.lock.default-wait}). */
	public Duration getDefaultWait() {
		return this.defaultWait;
	}

	/** The locks held through this template (and {@code @ZkLock}) now, for operators; a snapshot. */
	public List<ZkHeldLock> getHeldLocks() {
		return this.registry.heldLocks();
	}

	/** How many times a held lock was lost or put in doubt by a connection problem since startup. */
	public long getLostLockCount() {
		return this.registry.lostLocks();
	}

	@Override
	public void destroy() {
		this.asyncExecutor.shutdown();
		this.registry.close();
	}

	/** Tell the observer about every lock call from now on. */
	public void addObserver(ZkLockObserver observer) {
		this.observers.add(observer);
	}

	/** Instrument every lock call from now on (Micrometer Observations when the application has a registry). */
	public void setInstrumentation(ZkLockInstrumentation instrumentation) {
		this.instrumentation = instrumentation;
	}

	LockRegistry registry() {
		return this.registry;
	}

	Executor asyncExecutor() {
		return this.asyncExecutor;
	}

	/** A hold for an asynchronous result, not started yet ({@link AsyncHold#start()}). */
	AsyncHold asyncHold(String name, String key, ZkLock.Mode mode, Duration wait, boolean fetchToken) {
		return new AsyncHold(this, name, key, mode, wait, fetchToken);
	}

	/**
	 * Take the lock, telling the observers; {@code name} is what they see instead of the key. A hold is
	 * returned only while it is still held, so a body never starts with a lost context.
	 */
	@Nullable ZkLockContext acquire(String name, String key, ZkLock.Mode mode, Duration wait) {
		long start = System.nanoTime();
		ZkLockInstrumentation.Attempt attempt = this.instrumentation.acquiring(name, mode, wait);
		ZkLockContext context;
		try {
			context = this.registry.acquire(key, mode, wait);
		}
		catch (ZkLockUnavailableException | ZkLockInterruptedException ex) {
			Duration waited = since(start);
			attempt.ended((ex instanceof ZkLockInterruptedException) ? ZkLockInstrumentation.Outcome.INTERRUPTED
					: ZkLockInstrumentation.Outcome.UNAVAILABLE, ex);
			tell((observer) -> observer.unavailable(name, mode, waited));
			throw ex;
		}
		Duration waited = since(start);
		if (context == null) {
			attempt.ended(wait.isZero() ? ZkLockInstrumentation.Outcome.BUSY : ZkLockInstrumentation.Outcome.TIMED_OUT,
					null);
			tell((observer) -> observer.busy(name, mode, waited));
			return null;
		}
		boolean held = context.isHeld();
		attempt.ended(held ? ZkLockInstrumentation.Outcome.ACQUIRED : ZkLockInstrumentation.Outcome.LOST, null);
		context.holds.push(held ? attempt.holding() : ZkLockInstrumentation.Hold.NONE);
		tell((observer) -> observer.acquired(name, mode, waited));
		if (!held) {
			release(name, context, System.nanoTime());
			throw new ZkLockLostException(key, "Lock '" + key + "' (" + context.getPath()
					+ ") was lost before the body started (the ZooKeeper session is in doubt or gone); "
					+ "the body did not run.", null);
		}
		return context;
	}

	/** Release the hold taken at {@code acquiredAt} (a {@link System#nanoTime()}), telling the observers. */
	void release(String name, ZkLockContext context, long acquiredAt) {
		release(name, context, acquiredAt, null);
	}

	/** Release the hold whose body threw {@code error} (or {@code null}), telling the observers. */
	void release(String name, ZkLockContext context, long acquiredAt, @Nullable Throwable error) {
		boolean lost = context.wasLost() || !context.isHeld();
		Instant end = Instant.now();
		Instant start = end.minus(since(acquiredAt));
		try {
			this.registry.release(context);
		}
		finally {
			Duration held = since(acquiredAt);
			tell((observer) -> observer.released(name, context.getMode(), held));
			tell((observer) -> observer.releasedKey(context.getKey(), context.getMode(), start, end));
			ZkLockInstrumentation.Hold hold = context.holds.poll();
			if (hold != null) {
				hold.released(error, lost);
			}
		}
	}

	/** Make the innermost hold of the context current on this thread while its body runs. */
	static ZkLockInstrumentation.Scope openScope(ZkLockContext context) {
		ZkLockInstrumentation.Hold hold = context.holds.peek();
		return (hold != null) ? hold.openScope() : () -> {
		};
	}

	/** Call every observer; one that throws is logged, and never keeps a lock held or a node behind. */
	private void tell(Consumer<ZkLockObserver> call) {
		for (ZkLockObserver observer : this.observers) {
			try {
				call.accept(observer);
			}
			catch (RuntimeException ex) {
				logger.warn("ZkLockObserver " + observer + " failed: " + ex);
			}
		}
	}

	private <T> @Nullable T run(ZkLockContext context, Callable<T> body) {
		long acquiredAt = System.nanoTime();
		Throwable failure = null;
		try (ZkLockInstrumentation.Scope scope = openScope(context)) {
			return body.call();
		}
		catch (RuntimeException | Error ex) {
			failure = ex;
			throw ex;
		}
		catch (Exception ex) {
			failure = ex;
			throw new UndeclaredThrowableException(ex);
		}
		finally {
			release(TEMPLATE_LOCK_NAME, context, acquiredAt, failure);
		}
	}

	private static Duration since(long start) {
		return Duration.ofNanos(System.nanoTime() - start);
	}

	/**
	 * The {@code zk.lock.*} settings the template needs, as plain values ({@link ZkLockProperties#toSettings()}).
	 * @param root the znode under which each key gets its node
	 * @param defaultWait the wait when {@code @ZkLock} names none
	 * @param maxLocalHandoffs how many local holders may follow one another before a waiting JVM goes
	 * @param interruptOnLoss whether holders are interrupted when their lock is lost or in doubt
	 */
	public record Settings(String root, Duration defaultWait, int maxLocalHandoffs, boolean interruptOnLoss) {

		/** The defaults of the {@code zk.lock.*} properties: {@code /locks}, 3 s, 16 hand-offs, no interrupts. */
		public static Settings defaults() {
			return new ZkLockProperties().toSettings();
		}

		/** These settings with another root. */
		public Settings withRoot(String root) {
			return new Settings(root, this.defaultWait, this.maxLocalHandoffs, this.interruptOnLoss);
		}

	}

	private static Duration validWait(@Nullable Duration wait) {
		if (wait == null || wait.isNegative()) {
			throw new ZkStartupException("zk.lock.default-wait is " + wait + ".",
					"Set zk.lock.default-wait to zero (try once) or a positive duration such as 3s.");
		}
		return wait;
	}

	private static String validRoot(@Nullable String root) {
		try {
			PathUtils.validatePath(root);
			if ("/".equals(root)) {
				throw new IllegalArgumentException("the root itself cannot hold lock nodes");
			}
			return root;
		}
		catch (IllegalArgumentException | NullPointerException ex) {
			throw new ZkStartupException("zk.lock.root '" + root + "' is not a usable znode path: " + ex.getMessage()
					+ ".", "Set zk.lock.root to an absolute path such as /locks, without a trailing '/'.");
		}
	}

}
