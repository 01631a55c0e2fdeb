package dev.zkspring.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import org.apache.curator.framework.CuratorFramework;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsProperties;
import org.springframework.boot.micrometer.metrics.autoconfigure.PropertiesMeterFilter;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/grafana-dashboard.json queries only what the sample publishes: the sample takes a lock, refreshes,
 * leads and runs its jobs, and every metric and label of every query must be one of its meters' Prometheus
 * names (Micrometer's Prometheus naming: dots to underscores, timers in seconds with _count, _sum, _max and,
 * where the sample turns percentile histograms on, _bucket; counters with _total).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "zk.embedded.port=0", "sample.data-dir=./target/test-db-dashboard" })
class GrafanaDashboardTests {

	private static final Path DASHBOARD = Path.of("..", "docs", "grafana-dashboard.json");

	private static final Pattern METRIC = Pattern.compile("\\b(zk_[a-z_]+)\\b");

	private static final Pattern GROUPING = Pattern.compile("by \\(([^)]*)\\)");

	private static final Pattern SELECTOR_LABEL = Pattern.compile("[{,]\\s*([a-z_]+)\\s*(=~|!=|=)");

	/** Labels Prometheus adds (scrape target) or histograms carry. */
	private static final Set<String> PROMETHEUS_LABELS = Set.of("le", "instance", "job");

	static {
		// a fresh ZooKeeper and database each run: what an earlier run left (a refused document) must not matter
		org.springframework.util.FileSystemUtils.deleteRecursively(new java.io.File("target/test-db-dashboard"));
	}

	@LocalServerPort
	int port;

	@Autowired
	MeterRegistry registry;

	@Autowired
	CuratorFramework client;

	@Autowired
	MetricsProperties metrics;

	@Test
	void everyQueryOfTheDashboardUsesMetricsAndLabelsTheSamplePublishes() throws Exception {
		HttpClient http = HttpClient.newHttpClient();
		http.send(HttpRequest.newBuilder(uri("/stock/plum?quantity=2")).PUT(HttpRequest.BodyPublishers.noBody()).build(),
				HttpResponse.BodyHandlers.ofString());
		http.send(HttpRequest.newBuilder(uri("/stock/plum/deduct")).POST(HttpRequest.BodyPublishers.noBody()).build(),
				HttpResponse.BodyHandlers.ofString());
		this.client.create().orSetData().creatingParentsIfNeeded()
			.forPath("/config/sample", ("{\"sample\":{\"greeting\":\"dashboard " + java.util.UUID.randomUUID() + "\"}}").getBytes(StandardCharsets.UTF_8));
		Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> this.registry.find("zk.job.run").timer() != null
				&& this.registry.find("zk.config.refresh").timer() != null
				&& this.registry.find("zk.lock.acquisition").timer() != null);
		// a refused document: the rejections counter exists per znode once one was refused
		this.client.setData().forPath("/config/sample", "{\"sample\":".getBytes(StandardCharsets.UTF_8));
		Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> this.registry.find("zk.config.rejections").counter() != null);
		// ZooKeeper's data outlives the test (under sample.data-dir): leave a valid document for the next start
		this.client.setData().forPath("/config/sample", "{\"sample\":{\"greeting\":\"dashboard\"}}".getBytes(StandardCharsets.UTF_8));
		Set<String> names = new TreeSet<>();
		Set<String> labels = new TreeSet<>(PROMETHEUS_LABELS);
		PropertiesMeterFilter histograms = new PropertiesMeterFilter(this.metrics);
		for (Meter meter : this.registry.getMeters()) {
			names.addAll(prometheusNames(meter, histograms));
			meter.getId().getTags().stream().map(Tag::getKey).map((key) -> key.replace('.', '_')).forEach(labels::add);
		}
		List<String> queries = queries();
		assertThat(queries).hasSizeGreaterThanOrEqualTo(10);
		for (String query : queries) {
			Matcher metric = METRIC.matcher(query);
			while (metric.find()) {
				assertThat(names).as("metric of the query %s", query).contains(metric.group(1));
			}
			Matcher grouping = GROUPING.matcher(query);
			while (grouping.find()) {
				for (String label : grouping.group(1).split(",")) {
					assertThat(labels).as("label of the query %s", query).contains(label.trim());
				}
			}
			Matcher selector = SELECTOR_LABEL.matcher(query);
			while (selector.find()) {
				assertThat(labels).as("label of the query %s", query).contains(selector.group(1));
			}
		}
	}

	private static List<String> queries() throws Exception {
		JsonNode dashboard = JsonMapper.builder().build().readTree(Files.readString(DASHBOARD));
		List<String> queries = new ArrayList<>();
		for (JsonNode panel : dashboard.get("panels")) {
			for (JsonNode target : panel.get("targets")) {
				queries.add(target.get("expr").asString());
			}
		}
		for (JsonNode variable : dashboard.get("templating").get("list")) {
			if (variable.has("query") && variable.get("query").asString().contains("zk_")) {
				queries.add(variable.get("query").asString());
			}
		}
		return queries;
	}

	/**
	 * What a Prometheus registry would name the meter's series: a timer's {@code _bucket} only when the sample's
	 * {@code management.metrics.distribution.percentiles-histogram} turns its histogram on, as Boot's own filter
	 * reads it (a misspelt property binds nothing, and the p99 panels' queries then fail here).
	 */
	private static List<String> prometheusNames(Meter meter, PropertiesMeterFilter histograms) {
		String base = meter.getId().getName().replace('.', '_');
		if (meter instanceof Timer) {
			List<String> names = new ArrayList<>(List.of(base + "_seconds_count", base + "_seconds_sum", base + "_seconds_max"));
			Boolean histogram = histograms.configure(meter.getId(), DistributionStatisticConfig.NONE).isPercentileHistogram();
			if (Boolean.TRUE.equals(histogram)) {
				names.add(base + "_seconds_bucket");
			}
			return names;
		}
		if (meter instanceof LongTaskTimer) {
			return List.of(base + "_seconds_active_count", base + "_seconds_duration_sum", base + "_seconds_max");
		}
		if (meter instanceof Counter || meter instanceof FunctionCounter) {
			return List.of(base.endsWith("_total") ? base : base + "_total");
		}
		if (meter instanceof Gauge) {
			return List.of(base);
		}
		return List.of();
	}

	private URI uri(String path) {
		return URI.create("http://localhost:" + this.port + path);
	}

}
