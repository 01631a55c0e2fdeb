package dev.zkspring.leader.quartz;

import java.time.Duration;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.test.simple.SimpleSpan;
import io.micrometer.tracing.test.simple.SimpleTracer;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobExecutionContext;
import org.quartz.JobExecutionException;
import org.quartz.JobKey;
import org.quartz.impl.matchers.EverythingMatcher;

import dev.zkspring.observation.ZkJobRunObservations;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A run of a leader-gated job is a {@code zk.job.run} observation: a trace of its own, with the epoch. */
class JobRunObservationTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@Test
	void aRunIsObservedWithItsJobOutcomeAndEpoch() throws Exception {
		TestObservationRegistry registry = TestObservationRegistry.create();
		try (GatedQuartz quartz = new GatedQuartz(); CuratorFramework client = zk.newClient()) {
			GatedQuartz.Instance instance = quartz.start("a", client, Duration.ofSeconds(5), (scheduler) -> {
				scheduler.getListenerManager()
					.addJobListener(new ZkJobRunObservations(registry, null), EverythingMatcher.allJobs());
				scheduler.addJob(JobBuilder.newJob(FailingJob.class).withIdentity("failing", "reports").storeDurably()
					.build(), false);
			});
			instance.scheduler().triggerJob(JobKey.jobKey("plain"));
			instance.scheduler().triggerJob(JobKey.jobKey("failing", "reports"));
			await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> TestObservationRegistryAssert.assertThat(registry)
				.hasNumberOfObservationsWithNameEqualTo("zk.job.run", 2));
			String epoch = String.valueOf(instance.election().epoch());
			TestObservationRegistryAssert.assertThat(registry)
				.hasAnObservation((o) -> o.hasNameEqualTo("zk.job.run")
					.hasContextualNameEqualTo("zk job DEFAULT.plain")
					.hasLowCardinalityKeyValue("job.group", "DEFAULT")
					.hasLowCardinalityKeyValue("job.name", "plain")
					.hasLowCardinalityKeyValue("outcome", "succeeded")
					.hasHighCardinalityKeyValue("zk.leader.epoch", epoch)
					.doesNotHaveParentObservation())
				.hasAnObservation((o) -> o.hasNameEqualTo("zk.job.run")
					.hasLowCardinalityKeyValue("job.group", "reports")
					.hasLowCardinalityKeyValue("outcome", "failed")
					.hasError());
		}
	}

	@Test
	void aRunStartsANewTraceEvenWhenAskedForFromInsideOne() throws Exception {
		SimpleTracer tracer = new SimpleTracer();
		ObservationRegistry registry = ObservationRegistry.create();
		registry.observationConfig().observationHandler(new DefaultTracingObservationHandler(tracer));
		try (GatedQuartz quartz = new GatedQuartz(); CuratorFramework client = zk.newClient()) {
			GatedQuartz.Instance instance = quartz.start("a", client, Duration.ofSeconds(5), (scheduler) -> scheduler
				.getListenerManager()
				.addJobListener(new ZkJobRunObservations(registry, null), EverythingMatcher.allJobs()));
			Observation.createNotStarted("request", registry)
				.observeChecked(() -> instance.scheduler().triggerJob(JobKey.jobKey("plain")));
			await().atMost(Duration.ofSeconds(10)).until(() -> tracer.getSpans().size() == 2);
			SimpleSpan request = tracer.getSpans().stream().filter((s) -> s.getName().equals("request")).findFirst().get();
			SimpleSpan run = tracer.getSpans().stream().filter((s) -> s.getName().equals("zk job DEFAULT.plain"))
				.findFirst().get();
			assertThat(run.getTraceId()).isNotEqualTo(request.getTraceId());
			assertThat(run.getParentId()).isNullOrEmpty();
		}
	}

	public static class FailingJob implements Job {

		@Override
		public void execute(JobExecutionContext context) throws JobExecutionException {
			throw new JobExecutionException("the report failed");
		}

	}

}
