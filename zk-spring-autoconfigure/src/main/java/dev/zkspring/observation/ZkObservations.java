package dev.zkspring.observation;

import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.lock.ZkLockTemplate;
import dev.zkspring.refresh.ZkRefresher;

/**
 * Fills the capabilities' instrumentation seams with observations through one {@link ObservationRegistry}:
 * the public entry point the auto-configuration (or an application wiring zk-spring by hand) calls.
 * Conventions left {@code null} use the defaults.
 */
public final class ZkObservations {

	private final ObservationRegistry registry;

	private final Conventions conventions;

	/**
	 * Observe through the registry.
	 * @param registry the application's registry
	 * @param conventions the application's conventions
	 */
	public ZkObservations(ObservationRegistry registry, Conventions conventions) {
		this.registry = registry;
		this.conventions = conventions;
	}

	/** Observe every lock call of the template: its wait and its hold. */
	public void instrument(ZkLockTemplate template) {
		template.setInstrumentation(new LockObservations(this.registry, this.conventions.lockAcquisition(),
				this.conventions.lockHold()));
	}

	/** Observe the election's {@code @LeaderOnly} calls and its leadership terms. */
	public void instrument(ZkLeaderElection election) {
		election.setLeaderOnlyInstrumentation(new LeaderOnlyObservations(this.registry, this.conventions.leaderOnly()));
		election.addListener(new LeadershipTermObservations(this.registry, this.conventions.leadershipTerm()));
	}

	/** Observe every refresh. */
	public void instrument(ZkRefresher refresher) {
		refresher.setInstrumentation(new RefreshObservations(this.registry, this.conventions.refresh()));
	}

	/** The registry observed through. */
	public ObservationRegistry registry() {
		return this.registry;
	}

	/**
	 * The application's conventions, each {@code null} for the default.
	 * @param lockAcquisition for {@code zk.lock.acquisition}
	 * @param lockHold for {@code zk.lock.holding}
	 * @param leaderOnly for {@code zk.leader.only}
	 * @param leadershipTerm for {@code zk.leader.term}
	 * @param refresh for {@code zk.config.refresh}
	 */
	public record Conventions(@Nullable ZkLockAcquisitionConvention lockAcquisition,
			@Nullable ZkLockHoldConvention lockHold, @Nullable ZkLeaderOnlyConvention leaderOnly,
			@Nullable ZkLeadershipTermConvention leadershipTerm, @Nullable ZkRefreshConvention refresh) {

		/** Every default. */
		public static Conventions defaults() {
			return new Conventions(null, null, null, null, null);
		}

	}

}
