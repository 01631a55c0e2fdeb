package dev.zkspring.observation;

import java.util.List;

import io.micrometer.tracing.Span;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import org.jspecify.annotations.Nullable;

/**
 * A W3C {@code traceparent} propagation over Micrometer Tracing's test tracer (micrometer-tracing-test has no
 * propagator): what OpenTelemetry's and Brave's default propagation write and read, for the tests of traces
 * carried across instances.
 */
final class W3cTestPropagator implements Propagator {

	static final String TRACEPARENT = "traceparent";

	private final Tracer tracer;

	W3cTestPropagator(Tracer tracer) {
		this.tracer = tracer;
	}

	@Override
	public List<String> fields() {
		return List.of(TRACEPARENT);
	}

	@Override
	public <C> void inject(TraceContext context, @Nullable C carrier, Setter<C> setter) {
		setter.set(carrier, TRACEPARENT, "00-" + context.traceId() + "-" + context.spanId() + "-01");
	}

	@Override
	public <C> Span.Builder extract(C carrier, Getter<C> getter) {
		String traceparent = getter.get(carrier, TRACEPARENT);
		String[] parts = (traceparent != null) ? traceparent.split("-") : new String[0];
		if (parts.length != 4) {
			return this.tracer.spanBuilder().setNoParent();
		}
		TraceContext parent = this.tracer.traceContextBuilder().traceId(parts[1]).spanId(parts[2]).sampled(true).build();
		return this.tracer.spanBuilder().setParent(parent);
	}

}
