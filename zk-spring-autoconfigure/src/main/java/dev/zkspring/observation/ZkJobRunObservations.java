package dev.zkspring.observation;

import java.util.LinkedHashMap;
import java.util.Map;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;
import org.quartz.JobExecutionContext;
import org.quartz.JobExecutionException;
import org.quartz.JobListener;

import dev.zkspring.leader.LeaderJobs;

/**
 * Each run of a Quartz job as a {@code zk.job.run} observation, current on the worker thread while the job
 * runs: a trace of its own, or for a run asked for from inside a trace (a run-now through the {@code zookeeper}
 * endpoint, {@code ZkJobs} or {@code JobRequester}), the asker's trace continued from the fields the request
 * carried ({@link LeaderJobs#TRACE_PREFIX}). Quartz tells a job listener on the worker thread before and after the run, so
 * the observation's scope opens and closes on the same thread. A separate type from
 * {@link ZkObservations} because Quartz may be absent. Registered on the leader-gated scheduler only
 * (after its gate, so vetoed firings are not runs).
 */
public final class ZkJobRunObservations implements JobListener {

	/** The listener's name in the scheduler. */
	public static final String NAME = "zk-spring-observations";

	private static final String OBSERVATION = ZkJobRunObservations.class.getName() + ".observation";

	private static final String SCOPE = ZkJobRunObservations.class.getName() + ".scope";

	private static final ZkJobRunConvention DEFAULT = new DefaultZkJobRunConvention();

	private final ObservationRegistry registry;

	private final @Nullable ZkJobRunConvention convention;

	/**
	 * Observe job runs.
	 * @param registry the application's registry
	 * @param convention the application's convention, or {@code null} for the default
	 */
	public ZkJobRunObservations(ObservationRegistry registry, @Nullable ZkJobRunConvention convention) {
		this.registry = registry;
		this.convention = convention;
	}

	@Override
	public String getName() {
		return NAME;
	}

	@Override
	public void jobToBeExecuted(JobExecutionContext job) {
		if (this.registry.isNoop()) {
			return;
		}
		Object epoch = job.getMergedJobDataMap().get(LeaderJobs.EPOCH_KEY);
		ZkJobRunContext context = new ZkJobRunContext(job.getJobDetail().getKey().getGroup(),
				job.getJobDetail().getKey().getName(), (epoch != null) ? String.valueOf(epoch) : "none", trace(job));
		Observation observation = Observation.createNotStarted(this.convention, DEFAULT, () -> context, this.registry)
			.parentObservation(null)
			.start();
		job.put(OBSERVATION, observation);
		job.put(SCOPE, observation.openScope());
	}

	/** The asker's trace context fields a requested run carries in its trigger's data; empty for any other run. */
	private static Map<String, String> trace(JobExecutionContext job) {
		Map<String, String> trace = new LinkedHashMap<>();
		job.getMergedJobDataMap().forEach((key, value) -> {
			if (key.startsWith(LeaderJobs.TRACE_PREFIX) && value instanceof String field) {
				trace.put(key.substring(LeaderJobs.TRACE_PREFIX.length()), field);
			}
		});
		return trace;
	}

	@Override
	public void jobExecutionVetoed(JobExecutionContext job) {
	}

	@Override
	public void jobWasExecuted(JobExecutionContext job, @Nullable JobExecutionException failure) {
		if (!(job.get(OBSERVATION) instanceof Observation observation)) {
			return;
		}
		if (job.get(SCOPE) instanceof Observation.Scope scope) {
			scope.close();
		}
		if (observation.getContext() instanceof ZkJobRunContext context) {
			context.setOutcome((failure != null) ? "failed" : "succeeded");
		}
		if (failure != null) {
			observation.error(failure);
		}
		observation.stop();
	}

}
