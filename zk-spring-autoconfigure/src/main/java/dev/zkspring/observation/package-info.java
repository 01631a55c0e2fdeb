/**
 * Micrometer Observations of zk-spring's capabilities, through the application's
 * {@link io.micrometer.observation.ObservationRegistry} (nothing when it has none): a lock's wait and
 * hold, a leader-gated job run, a {@code @LeaderOnly} call, a leadership term, a configuration refresh and
 * a write of the application's own {@code ConfigPublisher} or {@code ConfigCanaries}; and, with Micrometer
 * Tracing, the asker's trace context carried in job requests ({@link dev.zkspring.observation.ZkJobRequestTracing}),
 * so a requested run continues the asker's trace.
 * Each observation has a {@code ...Context}, a public {@code ...Convention} an application overrides with
 * a bean, and its {@code Default...Convention}; {@link dev.zkspring.observation.ZkObservationDocumentation}
 * lists every name and key (docs/observability.md). Keys are low cardinality: declared names, never a
 * lock's key or a configuration value. The capabilities offer instrumentation seams without Micrometer
 * types; {@link dev.zkspring.observation.ZkObservations} fills them.
 */
@NullMarked
package dev.zkspring.observation;

import org.jspecify.annotations.NullMarked;
