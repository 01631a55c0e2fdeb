package dev.zkspring.observation;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingReceiverTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingSenderTracingObservationHandler;
import io.micrometer.tracing.propagation.Propagator;
import io.micrometer.tracing.test.simple.SimpleSpan;
import io.micrometer.tracing.test.simple.SimpleTracer;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.quartz.JobKey;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.autoconfigure.ZkObservationAutoConfiguration;
import dev.zkspring.jobs.JobRequester;
import dev.zkspring.jobs.ZkJobs;
import dev.zkspring.leader.AppInstances;
import dev.zkspring.leader.AppInstances.Instance;
import dev.zkspring.leader.JobAnswer;
import dev.zkspring.leader.jobs.JobOperationsApp;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A run-now asked for inside a trace continues that trace on the leader: two application contexts, each with
 * Micrometer Tracing's test tracer and a W3C propagation, on one real server; the request node carries the
 * asker's {@code traceparent} and the leader's {@code zk.job.run} span is the asker's span's child. Asked
 * outside a trace, or by a requester given no tracing, the run is a trace of its own, as before.
 */
class RunNowTracingTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@RegisterExtension
	final AppInstances instances = new AppInstances(zk, TracedApp.class, "zk.leader.drain-timeout=1s",
			"zk.quartz.request-timeout=10s").resetting(JobOperationsApp.runs::clear);

	private static final String RUN_SPAN = "zk job DEFAULT.report";

	@Test
	void aRunNowAskedOnAFollowerInsideARequestContinuesTheRequestsTraceOnTheLeader() {
		Instance a = this.instances.start("a");
		await().atMost(Duration.ofSeconds(10)).until(a::isLeader);
		Instance b = this.instances.start("b");
		ObservationRegistry registry = b.context().getBean(ObservationRegistry.class);

		JobAnswer answer = Observation.createNotStarted("http.server.requests", registry)
			.contextualName("POST /actuator/zookeeper/jobs")
			.observe(() -> b.context().getBean(ZkJobs.class).request("DEFAULT", "report", "run"));

		assertThat(answer.status()).isEqualTo(JobAnswer.Status.STARTED);
		SimpleSpan request = span(tracer(b), "POST /actuator/zookeeper/jobs");
		SimpleSpan run = awaitSpan(tracer(a), RUN_SPAN);
		assertThat(run.getTraceId()).isEqualTo(request.getTraceId());
		assertThat(run.getParentId()).isEqualTo(request.getSpanId());
		assertThat(tracer(b).getSpans()).extracting(SimpleSpan::getName).doesNotContain(RUN_SPAN);
	}

	@Test
	void aRunNowAskedOutsideATraceStartsATraceOfItsOwn() {
		Instance a = this.instances.start("a");
		await().atMost(Duration.ofSeconds(10)).until(a::isLeader);
		Instance b = this.instances.start("b");

		assertThat(b.context().getBean(ZkJobs.class).request("DEFAULT", "report", "run").status())
			.isEqualTo(JobAnswer.Status.STARTED);

		SimpleSpan run = awaitSpan(tracer(a), RUN_SPAN);
		assertThat(run.getParentId()).isNullOrEmpty();
	}

	@Test
	void aJobRequesterGivenTheTracingCarriesItsCallersTraceAndOneGivenNoneDoesNot() throws Exception {
		Instance a = this.instances.start("a");
		await().atMost(Duration.ofSeconds(10)).until(a::isLeader);
		CuratorFramework operator = this.instances.writer();
		SimpleTracer tracer = new SimpleTracer();
		JobRequester traced = new JobRequester(operator, a.election().latchPath());
		new ZkJobRequestTracing(tracer, new W3cTestPropagator(tracer)).instrument(traced);
		JobRequester plain = new JobRequester(operator, a.election().latchPath());

		Span caller = tracer.nextSpan().name("deploy pipeline").start();
		try (Tracer.SpanInScope scope = tracer.withSpan(caller)) {
			assertThat(traced.request(JobKey.jobKey("report"), "run", "ci", Duration.ofSeconds(10)).status())
				.isEqualTo(JobAnswer.Status.STARTED);
			SimpleSpan run = awaitSpan(tracer(a), RUN_SPAN);
			assertThat(run.getTraceId()).isEqualTo(caller.context().traceId());
			assertThat(run.getParentId()).isEqualTo(caller.context().spanId());

			tracer(a).getSpans().clear();
			assertThat(plain.request(JobKey.jobKey("report"), "run", "ci", Duration.ofSeconds(10)).status())
				.isEqualTo(JobAnswer.Status.STARTED);
			SimpleSpan untraced = awaitSpan(tracer(a), RUN_SPAN);
			assertThat(untraced.getTraceId()).isNotEqualTo(caller.context().traceId());
			assertThat(untraced.getParentId()).isNullOrEmpty();
		}
		finally {
			caller.end();
		}
	}

	@Test
	void theRequestNodeCarriesTheTraceparentOnlyInsideATrace() throws Exception {
		SimpleTracer tracer = new SimpleTracer();
		ZkJobRequestTracing tracing = new ZkJobRequestTracing(tracer, new W3cTestPropagator(tracer));
		assertThat(tracing.get()).isEmpty();
		Span caller = tracer.nextSpan().name("caller").start();
		try (Tracer.SpanInScope scope = tracer.withSpan(caller)) {
			assertThat(tracing.get()).containsOnlyKeys(W3cTestPropagator.TRACEPARENT)
				.containsValue("00-" + caller.context().traceId() + "-" + caller.context().spanId() + "-01");
		}
		finally {
			caller.end();
		}
		// nobody leads here: the request stays in its node until withdrawn
		try (CuratorFramework client = zk.newClient()) {
			client.create().creatingParentsIfNeeded().forPath("/leader/solo/member-0");
			JobRequester requester = new JobRequester(client, "/leader/solo");
			Span asker = tracer.nextSpan().name("asker").start();
			requester.setTraceContext(tracing);
			JobAnswer[] answer = new JobAnswer[1];
			Thread asking = new Thread(() -> {
				try (Tracer.SpanInScope scope = tracer.withSpan(asker)) {
					answer[0] = requester.request(JobKey.jobKey("report"), "run", "ci", Duration.ofSeconds(3));
				}
				catch (Exception ex) {
					throw new IllegalStateException(ex);
				}
			});
			asking.start();
			await().atMost(Duration.ofSeconds(5)).until(() -> client.checkExists().forPath("/leader/solo.jobs/requests") != null
					&& !client.getChildren().forPath("/leader/solo.jobs/requests").isEmpty());
			String node = client.getChildren().forPath("/leader/solo.jobs/requests").get(0);
			String data = new String(client.getData().forPath("/leader/solo.jobs/requests/" + node), StandardCharsets.UTF_8);
			assertThat(data.lines().toList()).containsExactly("run", "DEFAULT", "report", "ci",
					"traceparent=00-" + asker.context().traceId() + "-" + asker.context().spanId() + "-01");
			asking.join(10_000);
			assertThat(answer[0].status()).isEqualTo(JobAnswer.Status.TIMEOUT);
			asker.end();
		}
	}

	@Test
	void withoutMicrometerTracingNothingCarriesATrace() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class, ZkObservationAutoConfiguration.class))
			.withPropertyValues(zk.connectProperty(), "zk.config.enabled=false")
			.withBean(ObservationRegistry.class, ObservationRegistry::create)
			.withClassLoader(new FilteredClassLoader(Tracer.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(ZkObservations.class)
				.doesNotHaveBean("zkJobRequestTracing"));
	}

	private static SimpleTracer tracer(Instance instance) {
		return instance.context().getBean(SimpleTracer.class);
	}

	private static SimpleSpan span(SimpleTracer tracer, String name) {
		List<SimpleSpan> spans = tracer.getSpans().stream().filter((span) -> name.equals(span.getName())).toList();
		assertThat(spans).as("spans named %s", name).hasSize(1);
		return spans.get(0);
	}

	/** The one span of that name, once it has ended (the run's observation stops after the job). */
	private static SimpleSpan awaitSpan(SimpleTracer tracer, String name) {
		await().atMost(Duration.ofSeconds(10)).until(() -> tracer.getSpans().stream()
			.anyMatch((span) -> name.equals(span.getName()) && span.getEndTimestamp() != null && span.getEndTimestamp().toEpochMilli() > 0));
		return span(tracer, name);
	}

	/** The job application, with Micrometer Tracing's test tracer, a W3C propagation and Boot's handler order. */
	@Configuration(proxyBeanMethods = false)
	@Import(JobOperationsApp.class)
	@ImportAutoConfiguration(ZkObservationAutoConfiguration.class)
	static class TracedApp {

		@Bean
		SimpleTracer tracer() {
			return new SimpleTracer();
		}

		@Bean
		Propagator propagator(SimpleTracer tracer) {
			return new W3cTestPropagator(tracer);
		}

		@Bean
		ObservationRegistry observationRegistry(SimpleTracer tracer, Propagator propagator) {
			ObservationRegistry registry = ObservationRegistry.create();
			// as Boot groups tracing handlers: the first that supports a context handles it
			registry.observationConfig()
				.observationHandler(new ObservationHandler.FirstMatchingCompositeObservationHandler(
						new PropagatingReceiverTracingObservationHandler<>(tracer, propagator),
						new PropagatingSenderTracingObservationHandler<>(tracer, propagator),
						new DefaultTracingObservationHandler(tracer)));
			return registry;
		}

	}

}
