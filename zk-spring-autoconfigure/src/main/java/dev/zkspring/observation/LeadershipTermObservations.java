package dev.zkspring.observation;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicReference;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import dev.zkspring.leader.LeadershipGrantedEvent;
import dev.zkspring.leader.LeadershipListener;
import dev.zkspring.leader.LeadershipRevokedEvent;

/**
 * Each leadership term of one election as a {@code zk.leader.term} observation, started when leadership
 * is granted and stopped, with the reason, when it is revoked: a trace of its own, never a child of
 * whatever the announcing thread was doing.
 */
final class LeadershipTermObservations implements LeadershipListener {

	private static final ZkLeadershipTermConvention DEFAULT = new DefaultZkLeadershipTermConvention();

	private final ObservationRegistry registry;

	private final @Nullable ZkLeadershipTermConvention convention;

	private final AtomicReference<@Nullable Observation> term = new AtomicReference<>();

	LeadershipTermObservations(ObservationRegistry registry, @Nullable ZkLeadershipTermConvention convention) {
		this.registry = registry;
		this.convention = convention;
	}

	@Override
	public void leadershipGranted(LeadershipGrantedEvent event) {
		ZkLeadershipTermContext context = new ZkLeadershipTermContext(event.getElection().latchPath(),
				String.valueOf(event.getEpoch()));
		Observation observation = Observation.createNotStarted(this.convention, DEFAULT, () -> context, this.registry)
			.parentObservation(null)
			.start();
		Observation previous = this.term.getAndSet(observation);
		if (previous != null) {
			// granted twice without a revoke between: close the older term rather than leak it
			end(previous, "regranted");
		}
	}

	@Override
	public void leadershipRevoked(LeadershipRevokedEvent event) {
		Observation observation = this.term.getAndSet(null);
		if (observation != null) {
			end(observation, event.getReason().name().toLowerCase(Locale.ROOT));
		}
	}

	private static void end(Observation observation, String reason) {
		if (observation.getContext() instanceof ZkLeadershipTermContext context) {
			context.setReason(reason);
		}
		observation.stop();
	}

}
