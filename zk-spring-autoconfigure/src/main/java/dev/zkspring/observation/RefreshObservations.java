package dev.zkspring.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import dev.zkspring.config.ZkConfigCandidate;
import dev.zkspring.config.ZkConfigChangeRejectedException;
import dev.zkspring.refresh.ZkRefreshInstrumentation;

/** A configuration refresh as a {@code zk.config.refresh} observation: applied, refused or failed. */
final class RefreshObservations implements ZkRefreshInstrumentation {

	private static final ZkRefreshConvention DEFAULT = new DefaultZkRefreshConvention();

	private final ObservationRegistry registry;

	private final @Nullable ZkRefreshConvention convention;

	RefreshObservations(ObservationRegistry registry, @Nullable ZkRefreshConvention convention) {
		this.registry = registry;
		this.convention = convention;
	}

	@Override
	public void apply(ZkConfigCandidate candidate, Runnable refresh) {
		if (this.registry.isNoop()) {
			refresh.run();
			return;
		}
		ZkRefreshContext context = new ZkRefreshContext(String.join(",", candidate.getZnodeVersions().keySet()),
				candidate.getChanges().size());
		Observation observation = Observation
			.createNotStarted(this.convention, DEFAULT, () -> context, this.registry)
			.start();
		try (Observation.Scope scope = observation.openScope()) {
			refresh.run();
			context.setOutcome("applied");
		}
		catch (ZkConfigChangeRejectedException ex) {
			// a refusal is the refresh doing its job, not an error of the application
			context.setOutcome("refused");
			throw ex;
		}
		catch (RuntimeException | Error ex) {
			context.setOutcome("failed");
			observation.error(ex);
			throw ex;
		}
		finally {
			observation.stop();
		}
	}

}
