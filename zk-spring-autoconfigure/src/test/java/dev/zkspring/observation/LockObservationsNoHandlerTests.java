package dev.zkspring.observation;

import java.time.Duration;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;

import dev.zkspring.lock.ZkLock;
import dev.zkspring.lock.ZkLockInstrumentation;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 44's overhead: with a registry that has no handler (an application with Micrometer on the classpath
 * and nothing observing), a lock call creates no context and no observation at all: the benchmark's no-handler
 * row stays at the baseline (benchmarks/RESULTS-observation.md) only while this holds. No ZooKeeper here: the
 * instrumentation is asked directly, as the lock asks it.
 */
class LockObservationsNoHandlerTests {

	@Test
	void aRegistryWithNoHandlerGetsNothingFromALockCallAndOneWithAHandlerGetsTheObservations() {
		ObservationRegistry registry = ObservationRegistry.create();
		LockObservations observations = new LockObservations(registry, null, null);

		assertThat(observations.acquiring("Guarded.run", ZkLock.Mode.WRITE, Duration.ofSeconds(1)))
			.isSameAs(ZkLockInstrumentation.Attempt.NONE);

		registry.observationConfig().observationHandler(new ObservationHandler<>() {
			@Override
			public boolean supportsContext(Observation.Context context) {
				return true;
			}
		});
		ZkLockInstrumentation.Attempt attempt = observations.acquiring("Guarded.run", ZkLock.Mode.WRITE,
				Duration.ofSeconds(1));
		assertThat(attempt).isNotSameAs(ZkLockInstrumentation.Attempt.NONE);
		attempt.ended(ZkLockInstrumentation.Outcome.ACQUIRED, null);
		ZkLockInstrumentation.Hold hold = attempt.holding();
		assertThat(hold).isNotSameAs(ZkLockInstrumentation.Hold.NONE);
		hold.released(null, false);
	}

}
