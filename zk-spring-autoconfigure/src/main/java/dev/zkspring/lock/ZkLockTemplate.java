package dev.zkspring.lock;

import java.lang.reflect.UndeclaredThrowableException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.common.PathUtils;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.ApplicationEventPublisher;

import dev.zkspring.autoconfigure.ZkProperties;
import dev.zkspring.client.OwnedPaths;
import dev.zkspring.client.ZkStartupException;

/**
 * Programmatic distributed locks: runs a body while holding a key, for code where the key or the wait
 * is only known at run time. Same semantics as {@link ZkLock}, which uses the same locks.
 */
public class ZkLockTemplate implements DisposableBean {

	/** The name {@link ZkLockObserver}s see for calls through the template, whose keys are not names. */
	public static final String TEMPLATE_LOCK_NAME = "template";

	private final LockRegistry registry;

	private final List<ZkLockObserver> observers = new CopyOnWriteArrayList<>();

	private final Duration defaultWait;

	/**
	 * Create a template on the application's client.
	 * @param client a started client; each client (session) is one "JVM" to the lock
	 * @param properties the {@code zk.lock.*} properties
	 * @param publisher where {@link ZkLockLostEvent}s go
	 * @throws ZkStartupException naming the property when a setting cannot work
	 */
	public ZkLockTemplate(CuratorFramework client, ZkProperties.Lock properties, ApplicationEventPublisher publisher) {
		this.defaultWait = validWait(properties.getDefaultWait());
		if (properties.getMaxLocalHandoffs() < 0) {
			throw new ZkStartupException("zk.lock.max-local-handoffs is " + properties.getMaxLocalHandoffs() + ".",
					"Set zk.lock.max-local-handoffs to 0 or more (0 checks for waiting JVMs on every local hand-off).");
		}
		this.registry = new LockRegistry(client, validRoot(properties.getRoot()), properties.getMaxLocalHandoffs(),
				properties.isInterruptOnLoss(), publisher);
		OwnedPaths.ensureAtStartup(client, this.registry.root);
	}

	/**
	 * Run the body holding {@code key} exclusively. A checked exception of the body is rethrown wrapped in
	 * an {@link UndeclaredThrowableException}.
	 * @throws ZkLockBusyException when the key stays busy for {@code wait}
	 * @throws ZkLockUnavailableException when ZooKeeper cannot be reached
	 */
	public <T> @Nullable T execute(String key, Duration wait, Callable<T> body) {
		return execute(key, ZkLock.Mode.MUTEX, wait, body);
	}

	/**
	 * Run the body holding {@code key} in the given mode.
	 * @throws ZkLockBusyException when the key stays busy for {@code wait}
	 * @throws ZkLockUnavailableException when ZooKeeper cannot be reached
	 */
	public <T> @Nullable T execute(String key, ZkLock.Mode mode, Duration wait, Callable<T> body) {
		ZkLockContext context = acquire(TEMPLATE_LOCK_NAME, key, mode, wait);
		if (context == null) {
			throw new ZkLockBusyException(key, wait);
		}
		return run(context, body);
	}

	/**
	 * Run the body holding {@code key} exclusively, or not at all when it stays busy.
	 * @return the body's result, or empty when the key was busy (or the body returned {@code null})
	 */
	public <T> Optional<T> tryExecute(String key, Duration wait, Callable<T> body) {
		return tryExecute(key, ZkLock.Mode.MUTEX, wait, body);
	}

	/**
	 * Run the body holding {@code key} in the given mode, or not at all when it stays busy.
	 * @return the body's result, or empty when the key was busy (or the body returned {@code null})
	 */
	public <T> Optional<T> tryExecute(String key, ZkLock.Mode mode, Duration wait, Callable<T> body) {
		ZkLockContext context = acquire(TEMPLATE_LOCK_NAME, key, mode, wait);
		return (context != null) ? Optional.ofNullable(run(context, body)) : Optional.empty();
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
		this.registry.close();
	}

	/** Tell the observer about every lock call from now on. */
	public void addObserver(ZkLockObserver observer) {
		this.observers.add(observer);
	}

	LockRegistry registry() {
		return this.registry;
	}

	/** Take the lock, telling the observers; {@code name} is what they see instead of the key. */
	@Nullable ZkLockContext acquire(String name, String key, ZkLock.Mode mode, Duration wait) {
		long start = System.nanoTime();
		ZkLockContext context;
		try {
			context = this.registry.acquire(key, mode, wait);
		}
		catch (ZkLockUnavailableException ex) {
			Duration waited = since(start);
			this.observers.forEach((observer) -> observer.unavailable(name, mode, waited));
			throw ex;
		}
		Duration waited = since(start);
		if (context == null) {
			this.observers.forEach((observer) -> observer.busy(name, mode, waited));
		}
		else {
			this.observers.forEach((observer) -> observer.acquired(name, mode, waited));
		}
		return context;
	}

	/** Release the hold taken at {@code acquiredAt} (a {@link System#nanoTime()}), telling the observers. */
	void release(String name, ZkLockContext context, long acquiredAt) {
		try {
			this.registry.release(context);
		}
		finally {
			Duration held = since(acquiredAt);
			this.observers.forEach((observer) -> observer.released(name, context.getMode(), held));
		}
	}

	private <T> @Nullable T run(ZkLockContext context, Callable<T> body) {
		long acquiredAt = System.nanoTime();
		try {
			return body.call();
		}
		catch (RuntimeException | Error ex) {
			throw ex;
		}
		catch (Exception ex) {
			throw new UndeclaredThrowableException(ex);
		}
		finally {
			release(TEMPLATE_LOCK_NAME, context, acquiredAt);
		}
	}

	private static Duration since(long start) {
		return Duration.ofNanos(System.nanoTime() - start);
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
