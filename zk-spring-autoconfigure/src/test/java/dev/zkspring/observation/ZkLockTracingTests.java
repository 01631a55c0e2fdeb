package dev.zkspring.observation;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.test.simple.SimpleSpan;
import io.micrometer.tracing.test.simple.SimpleTracer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.autoconfigure.ZkLockAutoConfiguration;
import dev.zkspring.autoconfigure.ZkObservationAutoConfiguration;
import dev.zkspring.config.ZkConfigInitializer;
import dev.zkspring.lock.ZkLock;
import dev.zkspring.lock.ZkLockTemplate;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A trace across the lock, with Micrometer Tracing's test tracer: the request's span holds the lock's wait
 * and its hold side by side, and the guarded method's own spans sit inside the hold.
 */
class ZkLockTracingTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	private final SimpleTracer tracer = new SimpleTracer();

	private final ObservationRegistry registry = ObservationRegistry.create();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withInitializer(new ZkConfigInitializer())
		.withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class, ZkLockAutoConfiguration.class,
				ZkObservationAutoConfiguration.class))
		.withBean(ObservationRegistry.class, () -> this.registry)
		.withBean(Orders.class, () -> new Orders(this.registry))
		.withPropertyValues(zk.connectProperty(), "zk.config.enabled=false");

	ZkLockTracingTests() {
		this.registry.observationConfig().observationHandler(new DefaultTracingObservationHandler(this.tracer));
	}

	@Test
	void theLockedMethodRunsInsideTheHoldWhichSitsBesideTheWaitInTheRequestsTrace() {
		this.runner.run((context) -> {
			Orders orders = context.getBean(Orders.class);
			Observation.createNotStarted("http.server.requests", this.registry).observe(() -> orders.ship("o-1"));
		});
		Map<String, SimpleSpan> spans = byName(this.tracer.getSpans().stream().toList());
		assertThat(spans).containsOnlyKeys("http.server.requests", "zk lock wait #orderId", "zk lock hold #orderId",
				"inventory");
		SimpleSpan request = spans.get("http.server.requests");
		SimpleSpan wait = spans.get("zk lock wait #orderId");
		SimpleSpan hold = spans.get("zk lock hold #orderId");
		SimpleSpan work = spans.get("inventory");
		assertThat(List.of(wait, hold, work)).extracting(SimpleSpan::getTraceId).containsOnly(request.getTraceId());
		assertThat(wait.getParentId()).isEqualTo(request.context().spanId());
		assertThat(hold.getParentId()).isEqualTo(request.context().spanId());
		assertThat(work.getParentId()).isEqualTo(hold.context().spanId());
		assertThat(wait.getTags()).containsEntry("lock", "#orderId").containsEntry("outcome", "acquired");
		assertThat(this.tracer.getSpans()).allSatisfy((span) -> assertThat(span.getTags().values()).doesNotContain("o-1"));
	}

	@Test
	void aTemplateBodyRunsInsideTheHoldToo() {
		this.runner.run((context) -> {
			ZkLockTemplate template = context.getBean(ZkLockTemplate.class);
			Observation.createNotStarted("request", this.registry)
				.observe(() -> template.execute("key-1", Duration.ofSeconds(1),
						() -> Observation.createNotStarted("body", this.registry).observe(() -> 1)));
		});
		Map<String, SimpleSpan> spans = byName(this.tracer.getSpans().stream().toList());
		assertThat(spans.get("body").getParentId()).isEqualTo(spans.get("zk lock hold template").context().spanId());
		assertThat(spans.get("zk lock hold template").getParentId()).isEqualTo(spans.get("request").context().spanId());
	}

	private static Map<String, SimpleSpan> byName(List<SimpleSpan> spans) {
		return spans.stream().collect(Collectors.toMap(SimpleSpan::getName, Function.identity()));
	}

	static class Orders {

		private final ObservationRegistry registry;

		Orders(ObservationRegistry registry) {
			this.registry = registry;
		}

		@ZkLock(key = "#orderId", waitTime = "1s")
		public void ship(String orderId) {
			Observation.createNotStarted("inventory", this.registry).observe(() -> {
			});
		}

	}

}
