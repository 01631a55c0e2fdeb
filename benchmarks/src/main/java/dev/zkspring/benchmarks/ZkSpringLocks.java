package dev.zkspring.benchmarks;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.micrometer.observation.ObservationRegistry;
import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import dev.zkspring.client.SessionLease;
import dev.zkspring.lock.ZkLock;
import dev.zkspring.lock.ZkLockTemplate;

/** zk-spring's locks, through the template and through {@code @ZkLock} on a proxied bean. */
final class ZkSpringLocks {

	private static final Duration LONG_WAIT = Duration.ofMinutes(1);

	private ZkSpringLocks() {
	}

	/** {@code ZkLockTemplate} on the given client, as the auto-configuration builds it. */
	static final LockLibrary TEMPLATE = new LockLibrary() {

		public String name() {
			return "zk-spring ZkLockTemplate";
		}

		public Locks open(CuratorFramework client) {
			// a root of its own, so the annotation contender's keys (under /locks) are not in its way
			SessionLease lease = SessionLease.start(client);
			ZkLockTemplate template = new ZkLockTemplate(client, lease,
					ZkLockTemplate.Settings.defaults().withRoot("/locks-template"), (event) -> {
					});
			return new Locks() {
				public void acquireRelease(String key) {
					template.execute(key, LONG_WAIT, () -> null);
				}

				public boolean tryOnce(String key) {
					return template.tryExecute(key, Duration.ZERO, () -> Boolean.TRUE).isAcquired();
				}

				public void hold(String key) throws InterruptedException {
					holdOnOwnThread((held) -> template.execute(key, LONG_WAIT, () -> {
						held.countDown();
						new CountDownLatch(1).await();
						return null;
					}));
				}

				public void close() {
					template.destroy();
					lease.close();
				}
			};
		}
	};

	/** A {@code @ZkLock} method on a bean of a small application that uses the given client. */
	static final LockLibrary ANNOTATION = annotation("zk-spring @ZkLock", null);

	/**
	 * The same with the given {@link ObservationRegistry} as the application's bean (issue 44's overhead
	 * row), or without one when {@code null}.
	 */
	static LockLibrary annotation(String name, @Nullable Supplier<ObservationRegistry> registry) {
		return annotation(name, registry, (template) -> {
		});
	}

	/** The same, handing the application's {@code ZkLockTemplate} to {@code started} (the observation probe's hook). */
	static LockLibrary annotation(String name, @Nullable Supplier<ObservationRegistry> registry,
			Consumer<ZkLockTemplate> started) {
		return new LockLibrary() {

			public String name() {
				return name;
			}

			public Locks open(CuratorFramework client) {
				ObservationRegistry observations = (registry != null) ? registry.get() : null;
				ConfigurableApplicationContext context = new SpringApplicationBuilder(Application.class)
					.web(WebApplicationType.NONE)
					.logStartupInfo(false)
					.initializers((ctx) -> {
						ctx.getBeanFactory().registerSingleton("curatorFramework", client);
						if (observations != null) {
							ctx.getBeanFactory().registerSingleton("observationRegistry", observations);
						}
					})
					.properties("spring.main.banner-mode=off", "zk.config.enabled=false", "zk.leader.enabled=false",
							"spring.cloud.zookeeper.enabled=false", "spring.cloud.zookeeper.config.enabled=false",
							"spring.cloud.compatibility-verifier.enabled=false")
					.run();
				if (observations != null && !context.containsBean("zkObservations")) {
					context.close();
					throw new IllegalStateException("the observation registry was not picked up by zk-spring");
				}
				Guarded guarded = context.getBean(Guarded.class);
				started.accept(context.getBean(ZkLockTemplate.class));
				return new Locks() {
					public void acquireRelease(String key) {
						guarded.run(key);
					}

					public boolean tryOnce(String key) {
						return guarded.tryOnce(key) != null;
					}

					public void hold(String key) throws InterruptedException {
						holdOnOwnThread((held) -> guarded.hold(key, held));
					}

					public void close() {
						context.close();
					}
				};
			}
		};
	}

	/** Take a key on a thread of its own that never lets go, and return once it holds it. */
	private static void holdOnOwnThread(Consumer<CountDownLatch> hold) throws InterruptedException {
		CountDownLatch held = new CountDownLatch(1);
		Thread holder = new Thread(() -> hold.accept(held), "bench-holder");
		holder.setDaemon(true);
		holder.start();
		if (!held.await(30, TimeUnit.SECONDS)) {
			throw new IllegalStateException("the holder could not take the busy key");
		}
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration(excludeName = ShardedJobBenchmark.QUARTZ_AUTO_CONFIGURATION)
	static class Application {

		@Bean
		Guarded guarded() {
			return new Guarded();
		}

	}

	/** The methods whose locking is measured. */
	static class Guarded {

		@ZkLock(key = "#key", waitTime = "60s")
		public void run(String key) {
		}

		@ZkLock(key = "#key", waitTime = "0", onBusy = ZkLock.OnBusy.SKIP)
		public Boolean tryOnce(String key) {
			return Boolean.TRUE;
		}

		@ZkLock(key = "#key", waitTime = "60s")
		public void hold(String key, CountDownLatch held) {
			held.countDown();
			try {
				new CountDownLatch(1).await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

	}

}
