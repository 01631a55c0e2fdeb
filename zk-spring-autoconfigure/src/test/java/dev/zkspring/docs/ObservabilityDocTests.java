package dev.zkspring.docs;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import io.micrometer.common.docs.KeyName;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.observation.ObservationConvention;
import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.JobKey;
import org.quartz.Scheduler;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.context.PropertyPlaceholderAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.quartz.autoconfigure.QuartzAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.autoconfigure.ZkCrashDetectionAutoConfiguration;
import dev.zkspring.autoconfigure.ZkLeaderAutoConfiguration;
import dev.zkspring.autoconfigure.ZkLockAutoConfiguration;
import dev.zkspring.autoconfigure.ZkMetricsAutoConfiguration;
import dev.zkspring.autoconfigure.ZkObservationAutoConfiguration;
import dev.zkspring.autoconfigure.ZkQuartzAutoConfiguration;
import dev.zkspring.autoconfigure.ZkRefreshAutoConfiguration;
import dev.zkspring.config.ConfigLayout;
import dev.zkspring.config.ZkConfigInitializer;
import dev.zkspring.leader.LeaderOnly;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.lock.ZkLock;
import dev.zkspring.observation.ZkObservationDocumentation;
import dev.zkspring.publish.Change;
import dev.zkspring.publish.ConfigPublisher;
import dev.zkspring.refresh.RefreshScope;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * docs/observability.md's one table of meters and observations against the code: an application takes
 * locks, refreshes, refuses a document, leads, calls a {@code @LeaderOnly} method, runs a gated job and
 * publishes a document through its {@code ConfigPublisher},
 * and every {@code zk.*} meter its registry then holds must be a row with the tags the row names, every
 * row must have shown up, and every observation row must match {@link ZkObservationDocumentation}.
 */
class ObservabilityDocTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	/** Rows this application cannot show without stopping the server: ZkMetricsIntegrationTests covers them. */
	private static final Set<String> NOT_EXERCISED = Set.of("zk.lock.unavailable");


	private static final Pattern CODE = Pattern.compile("`([^`]+)`");

	@TempDir
	Path snapshots;

	@Test
	void everyMeterTheApplicationPublishesIsInTheTableWithItsTagsAndEveryRowShowsUp() throws Exception {
		Map<String, Row> rows = table();
		Map<String, Set<String>> published = new LinkedHashMap<>();
		try (CuratorFramework writer = zk.newClient()) {
			write(writer, "/config/docs", "{\"shop\":{\"greeting\":\"v1\"}}");
			ExecutorService threads = Executors.newSingleThreadExecutor();
			try {
				runner().run((context) -> {
					assertThat(context).hasNotFailed();
					MeterRegistry registry = context.getBean(MeterRegistry.class);
					ZkLeaderElection election = context.getBean(ZkLeaderElection.class);
					await().atMost(Duration.ofSeconds(20)).until(election::isLeader);
					Stock stock = context.getBean(Stock.class);
					CountDownLatch held = new CountDownLatch(1);
					CountDownLatch release = new CountDownLatch(1);
					Future<?> holder = threads.submit(() -> stock.deduct("A1", held, release));
					assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();
					assertThat(stock.deduct("A1", null, null)).isEmpty();
					release.countDown();
					holder.get(10, TimeUnit.SECONDS);
					context.getBean(Reports.class).run();
					context.getBean(ConfigPublisher.class).put("docs-published",
							"{\"shop\":{\"greeting\":\"v1\"}}".getBytes(StandardCharsets.UTF_8), Change.by("docs", null));
					Scheduler scheduler = context.getBean(Scheduler.class);
					await().atMost(Duration.ofSeconds(20)).until(scheduler::isStarted);
					scheduler.triggerJob(JobKey.jobKey("docs"));
					write(writer, "/config/docs", "{\"shop\":{\"greeting\":\"v2\"}}");
					await().atMost(Duration.ofSeconds(20))
						.until(() -> registry.find("zk.config.refresh").timer() != null
								&& registry.find("zk.job.run").timer() != null);
					write(writer, "/config/docs", "{\"shop\":{\"greeting\":");
					await().atMost(Duration.ofSeconds(20)).until(() -> registry.find("zk.config.rejections").counter() != null);
					// the client connected before the driver was installed: a session expiry shows its events
					ZooKeeperExtension.expireSession(context.getBean(CuratorFramework.class));
					await().atMost(Duration.ofSeconds(20)).until(() -> registry.find("zk.client.events").counter() != null);
					for (Meter meter : registry.getMeters()) {
						String name = meter.getId().getName();
						if (name.startsWith("zk.")) {
							published.computeIfAbsent(name, (key) -> new TreeSet<>())
								.addAll(meter.getId().getTags().stream().map(Tag::getKey).toList());
						}
					}
				});
			}
			finally {
				threads.shutdownNow();
				writer.delete().deletingChildrenIfNeeded().forPath("/config");
				writer.delete().deletingChildrenIfNeeded().forPath(ConfigLayout.metaRoot("/config"));
			}
		}
		Set<String> shown = new TreeSet<>();
		published.forEach((name, tags) -> {
			Row row = rows.get(name);
			String base = name;
			if (row == null && name.endsWith(".active")) {
				base = name.substring(0, name.length() - ".active".length());
				row = rows.get(base);
				assertThat(row).as("%s: the long task timer of an observation", name).isNotNull();
				assertThat(row.kind()).isEqualTo("observation");
			}
			assertThat(row).as("meter %s is published but not in docs/observability.md's table", name).isNotNull();
			Set<String> allowed = new TreeSet<>(row.tags());
			if (row.kind().equals("observation")) {
				allowed.add("error");
			}
			assertThat(allowed).as("the tags of %s in the table", name).containsAll(tags);
			shown.add(base);
		});
		Set<String> expected = new TreeSet<>(rows.keySet());
		expected.removeAll(NOT_EXERCISED);
		assertThat(shown).as("rows of the table the application published").containsAll(expected);
	}

	@Test
	void everyObservationRowMatchesTheObservationDocumentation() throws Exception {
		Map<String, Row> rows = table();
		Set<String> observations = new TreeSet<>();
		for (ZkObservationDocumentation observation : ZkObservationDocumentation.values()) {
			ObservationConvention<?> convention = observation.getDefaultConvention().getDeclaredConstructor().newInstance();
			String name = convention.getName();
			observations.add(name);
			Row row = rows.get(name);
			assertThat(row).as(name).isNotNull();
			assertThat(row.kind()).isEqualTo("observation");
			assertThat(row.tags()).as("low cardinality keys of %s", name).isEqualTo(names(observation.getLowCardinalityKeyNames()));
			assertThat(row.spanOnly()).as("high cardinality keys of %s", name)
				.isEqualTo(names(observation.getHighCardinalityKeyNames()));
		}
		assertThat(rows.values().stream().filter((row) -> row.kind().equals("observation")).map(Row::name))
			.containsExactlyInAnyOrderElementsOf(observations);
	}

	private ApplicationContextRunner runner() {
		return new ApplicationContextRunner().withInitializer(new ZkConfigInitializer())
			.withConfiguration(AutoConfigurations.of(PropertyPlaceholderAutoConfiguration.class,
					ZkAutoConfiguration.class, ZkRefreshAutoConfiguration.class, ZkLockAutoConfiguration.class,
					ZkLeaderAutoConfiguration.class, QuartzAutoConfiguration.class, ZkQuartzAutoConfiguration.class,
					ZkMetricsAutoConfiguration.class, ZkObservationAutoConfiguration.class,
					ZkCrashDetectionAutoConfiguration.class, ObservationAutoConfiguration.class, MetricsAutoConfiguration.class,
					CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class))
			.withBean(Stock.class)
			.withBean(Greeter.class)
			.withBean(Reports.class)
			.withBean("docsJob", JobDetail.class,
					() -> JobBuilder.newJob(DocsJob.class).withIdentity("docs").storeDurably().build())
			.withPropertyValues(zk.connectProperty(), "spring.application.name=docs",
					"zk.config.snapshot-dir=" + this.snapshots, "zk.connection-timeout=1s", "zk.session-timeout=10s");
	}

	private static Set<String> names(KeyName[] keys) {
		return Arrays.stream(keys).map(KeyName::asString).collect(Collectors.toCollection(TreeSet::new));
	}

	static Map<String, Row> table() {
		String page = DocsFiles.read(DocsFiles.root().resolve("docs/observability.md"));
		String section = page.substring(page.indexOf("## Every meter and observation"));
		section = section.substring(0, section.indexOf("\n## ", 3));
		Map<String, Row> rows = new LinkedHashMap<>();
		for (String line : section.lines().toList()) {
			if (line.startsWith("| `zk.")) {
				String[] cells = line.split("\\|");
				String name = cells[1].trim().replace("`", "");
				rows.put(name, new Row(name, cells[2].trim(), keys(cells[3]), keys(cells[4])));
			}
		}
		assertThat(rows).isNotEmpty();
		return rows;
	}

	/** The backticked names of a cell, leaving out the example values in parentheses. */
	private static Set<String> keys(String cell) {
		Set<String> keys = new TreeSet<>();
		Matcher code = CODE.matcher(cell.replaceAll("\\([^)]*\\)", ""));
		while (code.find()) {
			keys.add(code.group(1));
		}
		return keys;
	}

	private static void write(CuratorFramework writer, String path, String json) throws Exception {
		writer.create().orSetData().creatingParentsIfNeeded().forPath(path, json.getBytes(StandardCharsets.UTF_8));
	}

	record Row(String name, String kind, Set<String> tags, Set<String> spanOnly) {
	}

	static class Stock {

		@ZkLock(key = "'stock:' + #sku", waitTime = "0s", onBusy = ZkLock.OnBusy.SKIP)
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

	public static class DocsJob implements Job {

		@Override
		public void execute(JobExecutionContext context) {
		}

	}

}
