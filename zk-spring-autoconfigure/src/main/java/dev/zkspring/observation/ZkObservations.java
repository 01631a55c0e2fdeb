package dev.zkspring.observation;

import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.lock.ZkLockTemplate;
import dev.zkspring.publish.ConfigCanaries;
import dev.zkspring.publish.ConfigPublisher;
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

	/**
	 * Observe every write of a publisher built by hand or auto-configured ({@code zk.config.publish}): what an
	 * application's own publishing (an admin endpoint, a migration) looks like in its traces and meters.
	 */
	public void instrument(ConfigPublisher publisher) {
		publisher.setInstrumentation(new PublishObservations(this.registry, this.conventions.publish()));
	}

	/** Observe every canary start, promote and abort ({@code zk.config.publish}, as a publisher's writes). */
	public void instrument(ConfigCanaries canaries) {
		canaries.setInstrumentation(new PublishObservations(this.registry, this.conventions.publish()));
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
	 * @param publish for {@code zk.config.publish}
	 */
	public record Conventions(@Nullable ZkLockAcquisitionConvention lockAcquisition,
			@Nullable ZkLockHoldConvention lockHold, @Nullable ZkLeaderOnlyConvention leaderOnly,
			@Nullable ZkLeadershipTermConvention leadershipTerm, @Nullable ZkRefreshConvention refresh,
			@Nullable ZkPublishConvention publish) {

		/** The conventions of the observations before {@code zk.config.publish}, its default for it. */
		public Conventions(@Nullable ZkLockAcquisitionConvention lockAcquisition, @Nullable ZkLockHoldConvention lockHold,
				@Nullable ZkLeaderOnlyConvention leaderOnly, @Nullable ZkLeadershipTermConvention leadershipTerm,
				@Nullable ZkRefreshConvention refresh) {
			this(lockAcquisition, lockHold, leaderOnly, leadershipTerm, refresh, null);
		}

		/** Every default. */
		public static Conventions defaults() {
			return new Conventions(null, null, null, null, null, null);
		}

	}

}
