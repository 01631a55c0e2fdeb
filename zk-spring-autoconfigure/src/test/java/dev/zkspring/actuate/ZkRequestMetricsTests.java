package dev.zkspring.actuate;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.curator.drivers.AdvancedTracerDriver;
import org.apache.curator.drivers.EventTrace;
import org.apache.curator.drivers.OperationTrace;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.actuate.endpoint.MetricsEndpoint;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.autoconfigure.ZkMetricsAutoConfiguration;
import dev.zkspring.autoconfigure.ZkRefreshAutoConfiguration;
import dev.zkspring.config.ZkConfigInitializer;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/** ZooKeeper's request latency through Curator's tracer driver, after real requests to a real server. */
class ZkRequestMetricsTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@TempDir
	Path snapshots;

	@Test
	void everyRequestIsTimedByOperationAndResultNeverByPath() throws Exception {
		MeterRegistry registry = new SimpleMeterRegistry();
		try (CuratorFramework client = CuratorFrameworkFactory.newClient(zk.connectString(), new RetryOneTime(100))) {
			ZkRequestMetrics metrics = ZkRequestMetrics.install(client);
			metrics.bindTo(registry);
			client.start();
			client.blockUntilConnected(10, TimeUnit.SECONDS);
			String path = "/request-metrics/secret-order-4711";
			client.create().creatingParentsIfNeeded().forPath(path, "a".getBytes(StandardCharsets.UTF_8));
			client.getData().forPath(path);
			client.setData().forPath(path, "b".getBytes(StandardCharsets.UTF_8));
			client.checkExists().forPath(path);
			client.getChildren().forPath("/request-metrics");
			client.transaction().forOperations(client.transactionOp().setData().forPath(path));
			CountDownLatch synced = new CountDownLatch(1);
			client.sync().inBackground((c, event) -> synced.countDown()).forPath(path);
			assertThat(synced.await(10, TimeUnit.SECONDS)).isTrue();
			client.delete().forPath(path);
			assertThatExceptionOfType(KeeperException.NoNodeException.class)
				.isThrownBy(() -> client.getData().forPath(path));
			// Curator traces a foreground call that throws not at all; a background one with its result code
			CountDownLatch missing = new CountDownLatch(1);
			client.getData().inBackground((c, event) -> missing.countDown()).forPath(path);
			assertThat(missing.await(10, TimeUnit.SECONDS)).isTrue();
			for (String operation : List.of("create", "getData", "setData", "exists", "getChildren", "multi", "sync",
					"delete")) {
				await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(
						registry.get("zk.client.requests").tag("operation", operation).tag("result", "ok").timer().count())
					.as(operation)
					.isPositive());
			}
			assertThat(registry.get("zk.client.requests").tag("operation", "getData").tag("result", "nonode").timer()
				.count()).isEqualTo(1);
			assertThat(registry.get("zk.client.events").tag("event", "syncconnected").counter().count()).isPositive();
			assertThat(registry.getMeters()).flatExtracting((meter) -> meter.getId().getTags())
				.extracting((tag) -> tag.getKey())
				.containsOnly("operation", "result", "event");
			assertThat(registry.getMeters()).flatExtracting((meter) -> meter.getId().getTags())
				.noneMatch((tag) -> tag.getValue().contains("4711") || tag.getValue().contains("/"));
		}
	}

	@Test
	void aDriverTheApplicationInstalledBeforeIsStillTold() throws Exception {
		List<String> seen = new CopyOnWriteArrayList<>();
		try (CuratorFramework client = CuratorFrameworkFactory.newClient(zk.connectString(), new RetryOneTime(100))) {
			client.getZookeeperClient().setTracerDriver(new AdvancedTracerDriver() {

				@Override
				public void addTrace(OperationTrace trace) {
					seen.add(trace.getName());
				}

				@Override
				public void addEvent(EventTrace trace) {
				}

			});
			ZkRequestMetrics.install(client).bindTo(new SimpleMeterRegistry());
			client.start();
			client.checkExists().forPath("/");
			assertThat(seen).contains("ExistsBuilderImpl-Foreground");
		}
	}

	@Test
	void theApplicationsMetricsListTheRequestTimersAfterAConfigLoad() throws Exception {
		try (CuratorFramework writer = zk.newClient()) {
			writer.create().orSetData().creatingParentsIfNeeded()
				.forPath("/config/orders", "{\"shop\":{\"greeting\":\"v1\"}}".getBytes(StandardCharsets.UTF_8));
			new ApplicationContextRunner().withInitializer(new ZkConfigInitializer())
				.withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class, ZkRefreshAutoConfiguration.class,
						ZkMetricsAutoConfiguration.class, MetricsAutoConfiguration.class,
						CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class))
				.withPropertyValues(zk.connectProperty(), "spring.application.name=orders",
						"zk.config.snapshot-dir=" + this.snapshots)
				.run((context) -> {
					MeterRegistry registry = context.getBean(MeterRegistry.class);
					writer.setData().forPath("/config/orders", "{\"shop\":{\"greeting\":\"v2\"}}".getBytes(StandardCharsets.UTF_8));
					await().atMost(Duration.ofSeconds(20))
						.until(() -> "v2".equals(context.getEnvironment().getProperty("shop.greeting")));
					assertThat(new MetricsEndpoint(registry).listNames().getNames()).contains("zk.client.requests");
					// the config center's consistent read: one multi of getData ops, straight to ZooKeeper
					Meter multi = registry.find("zk.client.requests").tag("operation", "multi").tag("result", "ok").timer();
					assertThat(multi).isNotNull();
				});
			writer.delete().deletingChildrenIfNeeded().forPath("/config");
		}
	}

}
