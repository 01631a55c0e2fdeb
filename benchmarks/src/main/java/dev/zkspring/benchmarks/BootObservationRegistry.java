package dev.zkspring.benchmarks;

import java.util.Collection;
import java.util.List;

import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationHandler.FirstMatchingCompositeObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingReceiverTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingSenderTracingObservationHandler;
import io.micrometer.tracing.handler.TracingAwareMeterObservationHandler;
import io.micrometer.tracing.otel.bridge.CompositeSpanExporter;
import io.micrometer.tracing.otel.bridge.EventListener;
import io.micrometer.tracing.otel.bridge.OtelBaggageManager;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelPropagator;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.micrometer.tracing.otel.bridge.Slf4JBaggageEventListener;
import io.micrometer.tracing.otel.bridge.Slf4JEventListener;
import io.micrometer.tracing.otel.propagation.BaggageTextMapPropagator;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.opentelemetry.sdk.trace.samplers.Sampler;

/**
 * An {@link ObservationRegistry} built as Spring Boot 4.1's auto-configuration builds one for an application
 * with actuator and Micrometer Tracing's OpenTelemetry bridge, with its defaults, so issue 44's overhead row
 * measures the handlers a production application has rather than the test tracer. From Boot 4.1's
 * {@code MetricsAutoConfiguration}, {@code MicrometerTracingAutoConfiguration},
 * {@code TracingAndMeterObservationHandlerGroup}, {@code OpenTelemetryTracingAutoConfiguration} and
 * {@code OpenTelemetryPropagationConfigurations}:
 * <ul>
 * <li>the meter handler: {@code DefaultMeterObservationHandler} with no ignored meters (the long task timer on:
 * {@code management.metrics.observations.ignored-meters} is empty by default) on the one meter registry, wrapped
 * in {@code TracingAwareMeterObservationHandler} because a tracer exists (exemplars);</li>
 * <li>the tracing handlers in one {@code FirstMatchingCompositeObservationHandler} in Boot's order: propagating
 * receiver, propagating sender, {@code DefaultTracingObservationHandler} (the lock's plain contexts reach the
 * last); the tracing group registered before the meter group;</li>
 * <li>{@code OtelTracer} over an {@code SdkTracerProvider} whose sampler is {@code parentBased(traceIdRatioBased(p))}
 * ({@code management.tracing.sampling.probability}, 0.1 by default) and whose one processor is a
 * {@code BatchSpanProcessor} with the SDK's default queue, batch and delay over a {@code CompositeSpanExporter};
 * the exporter here drops what it is given (an OTLP exporter's network cost is not ours to measure);</li>
 * <li>the event listeners Boot registers by default: {@code Slf4JEventListener} (trace and span ids in the MDC)
 * and {@code Slf4JBaggageEventListener} (baggage on, correlation on, no fields); W3C trace context and baggage
 * propagation.</li>
 * </ul>
 * Not reproduced: Boot's {@code PropertiesObservationFilterPredicate} (a map lookup per observation when no
 * {@code management.observations.*} property is set) and the SDK's {@code Resource} attributes (read at export).
 */
final class BootObservationRegistry {

	private BootObservationRegistry() {
	}

	/**
	 * A registry with Boot's meter and OpenTelemetry tracing handlers; the tracer provider is added to
	 * {@code closing} so its batch processor's thread ends with the run.
	 */
	static ObservationRegistry withOpenTelemetry(double samplingProbability, Collection<AutoCloseable> closing) {
		SpanExporter dropping = new DroppingExporter();
		SdkTracerProvider provider = SdkTracerProvider.builder()
			.setSampler(Sampler.parentBased(Sampler.traceIdRatioBased(samplingProbability)))
			.addSpanProcessor(BatchSpanProcessor
				.builder(new CompositeSpanExporter(List.of(dropping), List.of(), List.of(), List.of()))
				.build())
			.build();
		closing.add(provider::close);
		io.opentelemetry.api.trace.Tracer otel = provider.get("org.springframework.boot", "4.1.0");
		OtelCurrentTraceContext current = new OtelCurrentTraceContext();
		List<EventListener> listeners = List.of(new Slf4JEventListener(), new Slf4JBaggageEventListener(List.of()));
		OtelTracer tracer = new OtelTracer(otel, current, (event) -> listeners.forEach((l) -> l.onEvent(event)),
				new OtelBaggageManager(current, List.of(), List.of()));
		ContextPropagators propagators = ContextPropagators.create(TextMapPropagator.composite(
				W3CTraceContextPropagator.getInstance(),
				new BaggageTextMapPropagator(List.of(), new OtelBaggageManager(current, List.of(), List.of()))));
		OtelPropagator propagator = new OtelPropagator(propagators, otel);
		ObservationRegistry registry = ObservationRegistry.create();
		registry.observationConfig()
			.observationHandler(new FirstMatchingCompositeObservationHandler(
					new PropagatingReceiverTracingObservationHandler<>(tracer, propagator),
					new PropagatingSenderTracingObservationHandler<>(tracer, propagator),
					new DefaultTracingObservationHandler(tracer)))
			.observationHandler(new TracingAwareMeterObservationHandler<>(
					new DefaultMeterObservationHandler(new SimpleMeterRegistry()), tracer));
		return registry;
	}

	/** Stands in for an OTLP exporter: takes each batch and drops it. */
	private static final class DroppingExporter implements SpanExporter {

		@Override
		public CompletableResultCode export(Collection<SpanData> spans) {
			return CompletableResultCode.ofSuccess();
		}

		@Override
		public CompletableResultCode flush() {
			return CompletableResultCode.ofSuccess();
		}

		@Override
		public CompletableResultCode shutdown() {
			return CompletableResultCode.ofSuccess();
		}

	}

}
