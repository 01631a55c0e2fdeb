package dev.zkspring.observation;

import java.lang.reflect.Method;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import dev.zkspring.leader.LeaderOnlyInstrumentation;

/** A {@code @LeaderOnly} call as a {@code zk.leader.only} observation, current while the method runs. */
final class LeaderOnlyObservations implements LeaderOnlyInstrumentation {

	private static final ZkLeaderOnlyConvention DEFAULT = new DefaultZkLeaderOnlyConvention();

	private final ObservationRegistry registry;

	private final @Nullable ZkLeaderOnlyConvention convention;

	LeaderOnlyObservations(ObservationRegistry registry, @Nullable ZkLeaderOnlyConvention convention) {
		this.registry = registry;
		this.convention = convention;
	}

	@Override
	public @Nullable Object observe(Method method, String group, Call call) throws Throwable {
		if (this.registry.isNoop()) {
			return call.proceed(() -> {
			});
		}
		ZkLeaderOnlyContext context = new ZkLeaderOnlyContext(
				method.getDeclaringClass().getSimpleName() + "." + method.getName(), group);
		Observation observation = Observation
			.createNotStarted(this.convention, DEFAULT, () -> context, this.registry)
			.start();
		try (Observation.Scope scope = observation.openScope()) {
			return call.proceed(() -> context.setOutcome("skipped"));
		}
		catch (Throwable ex) {
			context.setOutcome("failed");
			observation.error(ex);
			throw ex;
		}
		finally {
			observation.stop();
		}
	}

}
