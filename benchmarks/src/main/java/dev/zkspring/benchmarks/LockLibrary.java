package dev.zkspring.benchmarks;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;

import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.provider.zookeeper.curator.ZookeeperCuratorLockProvider;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;

import org.springframework.integration.zookeeper.lock.ZookeeperLockRegistry;

/** One lock library, opened once per client (per simulated JVM). */
interface LockLibrary {

	String name();

	/** Whether the library has blocking acquire-with-wait semantics (ShedLock only tries once). */
	default boolean blocking() {
		return true;
	}

	Locks open(CuratorFramework client) throws Exception;

	/** The library's lock operations on one client. */
	interface Locks extends AutoCloseable {

		/** Acquire, waiting as long as needed, then release. */
		void acquireRelease(String key) throws Exception;

		/** Try once without waiting; release if acquired. Returns whether it was acquired. */
		boolean tryOnce(String key) throws Exception;

		/** Acquire and keep until the client closes (the "busy" holder). */
		void hold(String key) throws Exception;

		@Override
		default void close() throws Exception {
		}

	}

	/** Curator's InterProcessMutex, one instance per key, as a hand-rolled integration would use it. */
	LockLibrary RAW_CURATOR = new LockLibrary() {

		public String name() {
			return "raw Curator InterProcessMutex";
		}

		public Locks open(CuratorFramework client) {
			Map<String, InterProcessMutex> mutexes = new ConcurrentHashMap<>();
			return new Locks() {
				InterProcessMutex mutex(String key) {
					return mutexes.computeIfAbsent(key, (k) -> new InterProcessMutex(client, "/bench-raw/" + k));
				}

				public void acquireRelease(String key) throws Exception {
					InterProcessMutex mutex = mutex(key);
					mutex.acquire();
					mutex.release();
				}

				public boolean tryOnce(String key) throws Exception {
					InterProcessMutex mutex = mutex(key);
					if (mutex.acquire(0, TimeUnit.MILLISECONDS)) {
						mutex.release();
						return true;
					}
					return false;
				}

				public void hold(String key) throws Exception {
					mutex(key).acquire();
				}
			};
		}
	};

	/** Spring Integration's ZookeeperLockRegistry. */
	LockLibrary SPRING_INTEGRATION = new LockLibrary() {

		public String name() {
			return "Spring Integration ZookeeperLockRegistry";
		}

		public Locks open(CuratorFramework client) {
			ZookeeperLockRegistry registry = new ZookeeperLockRegistry(client, "/bench-si");
			return new Locks() {
				public void acquireRelease(String key) {
					Lock lock = registry.obtain(key);
					lock.lock();
					lock.unlock();
				}

				public boolean tryOnce(String key) {
					Lock lock = registry.obtain(key);
					if (lock.tryLock()) {
						lock.unlock();
						return true;
					}
					return false;
				}

				public void hold(String key) {
					registry.obtain(key).lock();
				}

				public void close() {
					registry.destroy();
				}
			};
		}
	};

	/** ShedLock's ZooKeeper provider: try-once leases, no waiting, so only the try-once scenario applies. */
	LockLibrary SHEDLOCK = new LockLibrary() {

		public String name() {
			return "ShedLock ZookeeperCuratorLockProvider";
		}

		public boolean blocking() {
			return false;
		}

		public Locks open(CuratorFramework client) {
			ZookeeperCuratorLockProvider provider = new ZookeeperCuratorLockProvider(client, "/bench-shedlock");
			return new Locks() {
				Optional<SimpleLock> lock(String key) {
					return provider.lock(new LockConfiguration(Instant.now(), key, Duration.ofMinutes(10), Duration.ZERO));
				}

				public void acquireRelease(String key) {
					throw new UnsupportedOperationException("ShedLock does not wait for a lock");
				}

				public boolean tryOnce(String key) {
					Optional<SimpleLock> lock = lock(key);
					lock.ifPresent(SimpleLock::unlock);
					return lock.isPresent();
				}

				public void hold(String key) {
					if (lock(key).isEmpty()) {
						throw new IllegalStateException("ShedLock holder could not take " + key);
					}
				}
			};
		}
	};

}
