package dev.zkspring.observation;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.context.PropertyPlaceholderAutoConfiguration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.autoconfigure.ZkLeaderAutoConfiguration;
import dev.zkspring.autoconfigure.ZkLockAutoConfiguration;
import dev.zkspring.autoconfigure.ZkObservationAutoConfiguration;
import dev.zkspring.autoconfigure.ZkRefreshAutoConfiguration;
import dev.zkspring.config.ZkConfigInitializer;
import dev.zkspring.leader.LeaderOnly;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.lock.ZkLock;
import dev.zkspring.lock.ZkLockTemplate;
import dev.zkspring.refresh.RefreshScope;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Every observation through a {@link TestObservationRegistry}, against a real server: names, keys and
 * outcomes, and never a lock key's value.
 */
class ZkObservationsIntegrationTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	private static final Duration WAIT = Duration.ofSeconds(20);

	private static final String STOCK_LOCK = "'stock:' + #sku";

	/** The key's value the tests lock: it must never show in an observation. */
	private static final String SECRET_SKU = "sku-4711";

	@TempDir
	Path snapshots;

	private CuratorFramework writer;

	private final TestObservationRegistry registry = TestObservationRegistry.create();

	private ApplicationContextRunner runner;

	@BeforeEach
	void setUp() throws Exception {
		this.writer = zk.newClient();
		this.runner = new ApplicationContextRunner().withInitializer(new ZkConfigInitializer())
			.withConfiguration(AutoConfigurations.of(PropertyPlaceholderAutoConfiguration.class,
					ZkAutoConfiguration.class, ZkRefreshAutoConfiguration.class, ZkLockAutoConfiguration.class,
					ZkLeaderAutoConfiguration.class, ZkObservationAutoConfiguration.class))
			.withBean(ObservationRegistry.class, () -> this.registry)
			.withBean(Stock.class)
			.withBean(Greeter.class)
			.withBean(Reports.class)
			.withUserConfiguration(Enable.class)
			.withPropertyValues(zk.connectProperty(), "zk.leader.enabled=true",
					"zk.config.snapshot-dir=" + this.snapshots, "spring.application.name=orders",
					"zk.connection-timeout=1s", "zk.session-timeout=10s");
		write("/config/orders", "{\"shop\":{\"greeting\":\"v1\",\"count\":1}}");
	}

	@AfterEach
	void cleanUp() throws Exception {
		this.writer.delete().deletingChildrenIfNeeded().forPath("/config");
	}

	@Test
	void aLockCallIsAWaitThenAHoldNamedByTheKeyExpressionWithItsOutcomeNeverTheKey() throws Exception {
		ExecutorService threads = Executors.newSingleThreadExecutor();
		try {
			this.runner.run((context) -> {
				Stock stock = context.getBean(Stock.class);
				CountDownLatch held = new CountDownLatch(1);
				CountDownLatch release = new CountDownLatch(1);
				Future<?> holder = threads.submit(() -> stock.deduct(SECRET_SKU, held, release));
				assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();
				assertThat(stock.deduct(SECRET_SKU, null, null)).isEmpty();
				assertThat(stock.deductWaiting(SECRET_SKU)).isEmpty();
				release.countDown();
				holder.get(10, TimeUnit.SECONDS);
				context.getBean(ZkLockTemplate.class).execute("report-" + SECRET_SKU, ZkLock.Mode.WRITE,
						Duration.ofSeconds(1), () -> 1);
			});
		}
		finally {
			threads.shutdownNow();
		}
		TestObservationRegistryAssert.assertThat(this.registry)
			.hasNumberOfObservationsWithNameEqualTo("zk.lock.acquisition", 4)
			.hasAnObservation((o) -> o.hasNameEqualTo("zk.lock.acquisition")
				.hasContextualNameEqualTo("zk lock wait " + STOCK_LOCK)
				.hasLowCardinalityKeyValue("lock", STOCK_LOCK)
				.hasLowCardinalityKeyValue("mode", "MUTEX")
				.hasLowCardinalityKeyValue("outcome", "acquired")
				.isExactlyInstanceOf(ZkLockAcquisitionContext.class))
			.hasAnObservation((o) -> o.hasNameEqualTo("zk.lock.acquisition")
				.hasLowCardinalityKeyValue("lock", STOCK_LOCK)
				.hasLowCardinalityKeyValue("outcome", "busy"))
			.hasAnObservation((o) -> o.hasNameEqualTo("zk.lock.acquisition")
				.hasLowCardinalityKeyValue("lock", STOCK_LOCK)
				.hasLowCardinalityKeyValue("outcome", "timed_out"))
			.hasAnObservation((o) -> o.hasNameEqualTo("zk.lock.acquisition")
				.hasLowCardinalityKeyValue("lock", ZkLockTemplate.TEMPLATE_LOCK_NAME)
				.hasLowCardinalityKeyValue("mode", "WRITE")
				.hasLowCardinalityKeyValue("outcome", "acquired"))
			.hasNumberOfObservationsWithNameEqualTo("zk.lock.holding", 2)
			.hasAnObservation((o) -> o.hasNameEqualTo("zk.lock.holding")
				.hasContextualNameEqualTo("zk lock hold " + STOCK_LOCK)
				.hasLowCardinalityKeyValue("lock", STOCK_LOCK)
				.hasLowCardinalityKeyValue("outcome", "released")
				.isExactlyInstanceOf(ZkLockHoldContext.class))
			.hasHandledContextsThatSatisfy((contexts) -> assertThat(keyValuesOf(contexts))
				.noneMatch((value) -> value.contains(SECRET_SKU)));
	}

	@Test
	void aHoldWhoseBodyThrowsEndsFailedWithTheError() {
		this.runner.run((context) -> {
			ZkLockTemplate template = context.getBean(ZkLockTemplate.class);
			try {
				template.execute("boom", Duration.ofSeconds(1), () -> {
					throw new IllegalStateException("the body failed");
				});
			}
			catch (IllegalStateException expected) {
				// the observation is what this test checks
			}
		});
		TestObservationRegistryAssert.assertThat(this.registry)
			.hasObservationWithNameEqualTo("zk.lock.holding")
			.that()
			.hasLowCardinalityKeyValue("outcome", "failed")
			.hasError();
	}

	@Test
	void aRefreshIsObservedAppliedThenRefusedWithTheContextsAndTheNumberOfKeysChanged() throws Exception {
		this.runner.run((context) -> {
			Greeter greeter = context.getBean(Greeter.class);
			write("/config/orders", "{\"shop\":{\"greeting\":\"v2\",\"count\":1}}");
			await().atMost(WAIT).until(() -> "v2".equals(greeter.greeting));
			write("/config/orders", "{\"shop\":{\"greeting\":\"v2\",\"count\":\"many\"}}");
			await().atMost(WAIT).untilAsserted(() -> TestObservationRegistryAssert.assertThat(this.registry)
				.hasAnObservation((o) -> o.hasNameEqualTo("zk.config.refresh")
					.hasLowCardinalityKeyValue("outcome", "refused")));
		});
		TestObservationRegistryAssert.assertThat(this.registry)
			.hasNumberOfObservationsWithNameEqualTo("zk.config.refresh", 2)
			.hasAnObservation((o) -> o.hasNameEqualTo("zk.config.refresh")
				.hasContextualNameEqualTo("zk config refresh")
				.hasLowCardinalityKeyValue("contexts", "/config/orders")
				.hasLowCardinalityKeyValue("outcome", "applied")
				.hasHighCardinalityKeyValue("keys.changed", "1")
				.doesNotHaveError())
			.hasAnObservation((o) -> o.hasNameEqualTo("zk.config.refresh")
				.hasLowCardinalityKeyValue("outcome", "refused")
				.doesNotHaveError());
	}

	@Test
	void aLeaderOnlyCallAndTheLeadershipTermAreObservedTheTermEndingWithItsReason() {
		long[] epoch = new long[1];
		this.runner.run((context) -> {
			ZkLeaderElection election = context.getBean(ZkLeaderElection.class);
			await().atMost(WAIT).until(election::isLeader);
			epoch[0] = election.epoch();
			assertThat(context.getBean(Reports.class).run()).contains("ran");
		});
		TestObservationRegistryAssert.assertThat(this.registry)
			.hasObservationWithNameEqualTo("zk.leader.only")
			.that()
			.hasContextualNameEqualTo("zk leader-only Reports.run")
			.hasLowCardinalityKeyValue("method", "Reports.run")
			.hasLowCardinalityKeyValue("group", "/leader/orders")
			.hasLowCardinalityKeyValue("outcome", "ran")
			.hasBeenStopped();
		TestObservationRegistryAssert.assertThat(this.registry)
			.hasObservationWithNameEqualTo("zk.leader.term")
			.that()
			.hasLowCardinalityKeyValue("group", "/leader/orders")
			.hasLowCardinalityKeyValue("reason", "shutdown")
			.hasHighCardinalityKeyValue("zk.leader.epoch", String.valueOf(epoch[0]))
			.doesNotHaveParentObservation()
			.hasBeenStopped();
	}

	@Test
	void aLeaderOnlyCallOnAFollowerIsObservedSkipped() {
		this.runner.withPropertyValues("zk.leader.enabled=true", "zk.leader.group=other")
			.run((context) -> {
				ZkLeaderElection election = context.getBean(ZkLeaderElection.class);
				election.stop();
				assertThat(context.getBean(Reports.class).run()).isEmpty();
			});
		TestObservationRegistryAssert.assertThat(this.registry)
			.hasObservationWithNameEqualTo("zk.leader.only")
			.that()
			.hasLowCardinalityKeyValue("outcome", "skipped");
	}

	@Test
	void withoutMicrometerObservationTheLockStillWorksAndNothingIsObserved() {
		new ApplicationContextRunner().withInitializer(new ZkConfigInitializer())
			.withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class, ZkLockAutoConfiguration.class,
					ZkLeaderAutoConfiguration.class, ZkRefreshAutoConfiguration.class,
					ZkObservationAutoConfiguration.class))
			.withPropertyValues(zk.connectProperty(), "zk.leader.enabled=true", "zk.leader.group=plain",
					"zk.config.enabled=false")
			.withClassLoader(new FilteredClassLoader(Observation.class))
			.run((context) -> {
			assertThat(context).hasNotFailed().doesNotHaveBean(ZkObservations.class);
			assertThat(context.getBean(ZkLockTemplate.class).execute("plain", Duration.ofSeconds(1), () -> 2))
				.isEqualTo(2);
		});
	}

	@Test
	void withoutARegistryNothingIsInstrumented() {
		new ApplicationContextRunner().withInitializer(new ZkConfigInitializer())
			.withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class, ZkLockAutoConfiguration.class,
					ZkObservationAutoConfiguration.class))
			.withPropertyValues(zk.connectProperty(), "zk.config.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(ZkObservations.class));
	}

	private static List<String> keyValuesOf(List<Observation.Context> contexts) {
		return contexts.stream()
			.flatMap((context) -> java.util.stream.Stream.concat(
					context.getLowCardinalityKeyValues().stream(), context.getHighCardinalityKeyValues().stream()))
			.map(KeyValue::getValue)
			.toList();
	}

	private void write(String path, String json) throws Exception {
		byte[] data = json.getBytes(StandardCharsets.UTF_8);
		if (this.writer.checkExists().forPath(path) == null) {
			this.writer.create().creatingParentsIfNeeded().forPath(path, data);
		}
		else {
			this.writer.setData().forPath(path, data);
		}
	}

	static class Stock {

		@ZkLock(key = STOCK_LOCK, waitTime = "0s", onBusy = ZkLock.OnBusy.SKIP)
		public Optional<String> deduct(String sku, @Nullable CountDownLatch held, @Nullable CountDownLatch release) {
			if (held != null && release != null) {
				held.countDown();
				try {
					release.await(30, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
			return Optional.of("done");
		}

		@ZkLock(key = STOCK_LOCK, waitTime = "200ms", onBusy = ZkLock.OnBusy.SKIP)
		public Optional<String> deductWaiting(String sku) {
			return Optional.of("done");
		}

	}

	static class Reports {

		@LeaderOnly
		public Optional<String> run() {
			return Optional.of("ran");
		}

	}

	@RefreshScope
	static class Greeter {

		@Value("${shop.greeting:none}")
		volatile String greeting;

	}

	@EnableConfigurationProperties(Shop.class)
	static class Enable {

	}

	@RefreshScope
	@ConfigurationProperties("shop")
	public static class Shop {

		private int count;

		public int getCount() {
			return this.count;
		}

		public void setCount(int count) {
			this.count = count;
		}

	}

}
