package dev.zkspring.observation;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;

import dev.zkspring.jobs.JobRequester;
import dev.zkspring.jobs.ZkJobs;

/**
 * The calling thread's trace context as the propagation fields a job request carries (a W3C
 * {@code traceparent} with OpenTelemetry's or Brave's default propagation), so the leader's {@code zk.job.run}
 * of a requested run continues the asker's trace. A separate type from {@link ZkObservations} because
 * Micrometer Tracing may be absent; the auto-configuration installs it on {@link ZkJobs} when the application
 * has a {@link Tracer} and a {@link Propagator}, and a {@link JobRequester} built by hand gets it from
 * {@link #instrument(JobRequester)}.
 */
public final class ZkJobRequestTracing implements Supplier<Map<String, String>> {

	private final Tracer tracer;

	private final Propagator propagator;

	/**
	 * Carry the trace context of a tracer.
	 * @param tracer the application's tracer (whose current span asks)
	 * @param propagator the application's propagation (which fields, in which format)
	 */
	public ZkJobRequestTracing(Tracer tracer, Propagator propagator) {
		this.tracer = tracer;
		this.propagator = propagator;
	}

	/** The current span's propagation fields; empty outside a trace, so the run starts a trace of its own. */
	@Override
	public Map<String, String> get() {
		TraceContext context = this.tracer.currentTraceContext().context();
		if (context == null) {
			return Map.of();
		}
		Map<String, String> fields = new LinkedHashMap<>();
		this.propagator.inject(context, fields, (carrier, field, value) -> {
			if (carrier != null) {
				carrier.put(field, value);
			}
		});
		return fields;
	}

	/** Carry the asker's trace in the application's run, pause and resume requests (the endpoint's too). */
	public void instrument(ZkJobs jobs) {
		jobs.setTraceContext(this);
	}

	/** Carry the asker's trace in a requester's requests. */
	public void instrument(JobRequester requester) {
		requester.setTraceContext(this);
	}

}
