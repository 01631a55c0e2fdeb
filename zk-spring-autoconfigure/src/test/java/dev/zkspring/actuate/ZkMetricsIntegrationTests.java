package dev.zkspring.actuate;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.context.PropertyPlaceholderAutoConfiguration;
import org.springframework.boot.micrometer.metrics.actuate.endpoint.MetricsEndpoint;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;

import dev.zkspring.autoconfigure.ZkLeaderAutoConfiguration;
import dev.zkspring.autoconfigure.ZkLockAutoConfiguration;
import dev.zkspring.autoconfigure.ZkMetricsAutoConfiguration;
import dev.zkspring.autoconfigure.ZkRefreshAutoConfiguration;
import dev.zkspring.lock.ZkLock;
import dev.zkspring.lock.ZkLockTemplate;
import dev.zkspring.lock.ZkLockUnavailableException;
import dev.zkspring.refresh.RefreshScope;
import dev.zkspring.test.ZkAppFixture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/** zk-spring's meters, bound by Boot's own metrics auto-configuration, against a real server. */
class ZkMetricsIntegrationTests {

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture
		.server(ZkAppFixture.app(PropertyPlaceholderAutoConfiguration.class, ZkRefreshAutoConfiguration.class,
				ZkLockAutoConfiguration.class, ZkLeaderAutoConfiguration.class, ZkMetricsAutoConfiguration.class,
				MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
				SimpleMetricsExportAutoConfiguration.class))
		.cleaning("/config")
		.with((runner) -> runner.withBean(Stock.class)
			.withBean(Greeter.class)
			.withPropertyValues("zk.leader.enabled=true", "zk.connection-timeout=1s", "zk.session-timeout=10s"));

	private static final Duration WAIT = Duration.ofSeconds(20);

	private static final String STOCK_LOCK = "'stock:' + #sku";

	@BeforeEach
	void setUp() throws Exception {
		app.write("/config/orders", "{\"shop\":{\"greeting\":\"v1\"}}");
	}

	@Test
	void lockCallsAreCountedAndTimedByTheKeyExpressionNeverByTheResolvedKey() throws Exception {
		ExecutorService threads = Executors.newSingleThreadExecutor();
		try {
			app.runner().run((context) -> {
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				Stock stock = context.getBean(Stock.class);
				CountDownLatch held = new CountDownLatch(1);
				CountDownLatch release = new CountDownLatch(1);
				Future<?> holder = threads.submit(() -> stock.deduct("A1", held, release));
				assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();
				stock.deduct("A1", null, null);
				release.countDown();
				holder.get(10, TimeUnit.SECONDS);
				assertThat(registry.get("zk.lock.acquired").tag("lock", STOCK_LOCK).tag("mode", "MUTEX").counter()
					.count()).isEqualTo(1);
				assertThat(registry.get("zk.lock.busy").tag("lock", STOCK_LOCK).counter().count()).isEqualTo(1);
				assertThat(registry.get("zk.lock.wait").tag("lock", STOCK_LOCK).tag("outcome", "acquired").timer()
					.count()).isEqualTo(1);
				assertThat(registry.get("zk.lock.wait").tag("lock", STOCK_LOCK).tag("outcome", "busy").timer()
					.count()).isEqualTo(1);
				assertThat(registry.get("zk.lock.hold").tag("lock", STOCK_LOCK).timer().count()).isEqualTo(1);
				assertThat(registry.getMeters()).flatExtracting((meter) -> meter.getId().getTags())
					.noneMatch((tag) -> tag.getValue().contains("A1"));
			});
		}
		finally {
			threads.shutdownNow();
		}
	}

	@Test
	void aStoppedServerCountsTheHeldLockAsLostAndTheNextCallAsUnavailable() throws Exception {
		ExecutorService threads = Executors.newSingleThreadExecutor();
		boolean[] restarted = new boolean[1];
		try {
			app.runner().run((context) -> {
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				ZkLockTemplate template = context.getBean(ZkLockTemplate.class);
				CountDownLatch held = new CountDownLatch(1);
				CountDownLatch release = new CountDownLatch(1);
				Future<?> holder = threads.submit(() -> template.execute("report", Duration.ofSeconds(5), () -> {
					held.countDown();
					return release.await(30, TimeUnit.SECONDS);
				}));
				assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();
				assertThat(registry.get("zk.lock.lost").functionCounter().count()).isZero();
				app.zk().stopServer();
				await().atMost(WAIT).until(() -> registry.get("zk.lock.lost").functionCounter().count() == 1);
				assertThatExceptionOfType(ZkLockUnavailableException.class)
					.isThrownBy(() -> template.execute("report-2", Duration.ofSeconds(2), () -> 1));
				assertThat(registry.get("zk.lock.unavailable").tag("lock", ZkLockTemplate.TEMPLATE_LOCK_NAME)
					.counter().count()).isEqualTo(1);
				release.countDown();
				app.zk().restartServer();
				restarted[0] = true;
				holder.get(20, TimeUnit.SECONDS);
			});
		}
		finally {
			threads.shutdownNow();
			if (!restarted[0]) {
				app.zk().restartServer();
			}
		}
	}

	@Test
	void everyMeterNotTiedToALockOrZnodeIsListedAtZeroBeforeAnyEvent() {
		app.runner().run((context) -> {
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			assertThat(new MetricsEndpoint(registry).listNames().getNames()).contains("zk.config.changes", "zk.refresh",
					"zk.leader.transitions", "zk.leader.leading", "zk.leader.vetoed.firings", "zk.lock.lost");
			assertThat(registry.get("zk.config.changes").counter().count()).isZero();
			assertThat(registry.get("zk.refresh").timer().count()).isZero();
			assertThat(registry.get("zk.leader.transitions").tag("to", "follower").counter().count()).isZero();
			assertThat(registry.get("zk.leader.transitions").tag("to", "leader").counters()).hasSize(1);
		});
	}

	@Test
	void refreshesAreTimedAndRejectionsCountedPerZnode() throws Exception {
		app.runner().run((context) -> {
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			Greeter greeter = context.getBean(Greeter.class);
			assertThat(greeter.greeting).isEqualTo("v1");
			app.write("/config/orders", "{\"shop\":{\"greeting\":\"v2\"}}");
			await().atMost(WAIT).until(() -> "v2".equals(greeter.greeting));
			await().atMost(WAIT).until(() -> count(registry.find("zk.refresh").timer()) == 1);
			assertThat(registry.get("zk.config.changes").counter().count()).isEqualTo(1);
			assertThat(registry.find("zk.config.rejections").counter()).isNull();
			app.write("/config/orders", "{\"shop\":{\"greeting\":");
			await().atMost(WAIT)
				.until(() -> count(registry.find("zk.config.rejections").tag("znode", "/config/orders").counter()) == 1);
			assertThat(registry.get("zk.config.changes").counter().count()).isEqualTo(1);
		});
	}

	@Test
	void leadershipIsAGaugeAndItsTransitionsAreCounted() {
		app.runner().run((context) -> {
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			await().atMost(WAIT)
				.until(() -> registry.get("zk.leader.leading").tag("group", "/leader/orders").gauge().value() == 1);
			assertThat(registry.get("zk.leader.transitions").tag("to", "leader").counter().count()).isEqualTo(1);
			assertThat(registry.get("zk.leader.transitions").tag("to", "follower").counter().count()).isZero();
			assertThat(registry.get("zk.leader.vetoed.firings").functionCounter().count()).isZero();
		});
	}

	private static double count(@Nullable Meter meter) {
		if (meter == null) {
			return 0;
		}
		return meter.measure().iterator().next().getValue();
	}

	static class Stock {

		@ZkLock(key = STOCK_LOCK, waitTime = "0s", onBusy = ZkLock.OnBusy.SKIP)
		public void deduct(String sku, @Nullable CountDownLatch held, @Nullable CountDownLatch release) {
			if (held != null && release != null) {
				held.countDown();
				try {
					release.await(30, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
		}

	}

	@RefreshScope
	static class Greeter {

		@Value("${shop.greeting:none}")
		volatile String greeting;

	}

}
