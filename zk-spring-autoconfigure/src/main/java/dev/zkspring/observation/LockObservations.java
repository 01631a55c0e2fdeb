package dev.zkspring.observation;

import java.time.Duration;
import java.util.Locale;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import dev.zkspring.lock.ZkLock;
import dev.zkspring.lock.ZkLockInstrumentation;

/**
 * A lock call as two sibling observations under the caller's: {@code zk.lock.acquisition} for the wait,
 * then {@code zk.lock.holding}, current on the body's thread while the guarded method runs, so a trace
 * shows the wait and the work side by side and the method's own spans inside the hold.
 */
final class LockObservations implements ZkLockInstrumentation {

	private static final ZkLockAcquisitionConvention DEFAULT_ACQUISITION = new DefaultZkLockAcquisitionConvention();

	private static final ZkLockHoldConvention DEFAULT_HOLD = new DefaultZkLockHoldConvention();

	private final ObservationRegistry registry;

	private final @Nullable ZkLockAcquisitionConvention acquisitionConvention;

	private final @Nullable ZkLockHoldConvention holdConvention;

	LockObservations(ObservationRegistry registry, @Nullable ZkLockAcquisitionConvention acquisitionConvention,
			@Nullable ZkLockHoldConvention holdConvention) {
		this.registry = registry;
		this.acquisitionConvention = acquisitionConvention;
		this.holdConvention = holdConvention;
	}

	@Override
	public Attempt acquiring(String name, ZkLock.Mode mode, Duration wait) {
		if (this.registry.isNoop()) {
			return Attempt.NONE;
		}
		String modeName = mode.name();
		ZkLockAcquisitionContext context = new ZkLockAcquisitionContext(name, modeName);
		Observation observation = Observation
			.createNotStarted(this.acquisitionConvention, DEFAULT_ACQUISITION, () -> context, this.registry)
			.start();
		return new Attempt() {

			@Override
			public void ended(Outcome outcome, @Nullable Throwable error) {
				context.setOutcome(outcome.name().toLowerCase(Locale.ROOT));
				if (error != null) {
					observation.error(error);
				}
				observation.stop();
			}

			@Override
			public Hold holding() {
				return hold(name, modeName);
			}

		};
	}

	private Hold hold(String name, String mode) {
		ZkLockHoldContext context = new ZkLockHoldContext(name, mode);
		Observation observation = Observation
			.createNotStarted(this.holdConvention, DEFAULT_HOLD, () -> context, this.registry)
			.start();
		return new Hold() {

			@Override
			public Scope openScope() {
				Observation.Scope scope = observation.openScope();
				return scope::close;
			}

			@Override
			public void released(@Nullable Throwable error, boolean lost) {
				context.setOutcome(lost ? "lost" : (error != null) ? "failed" : "released");
				if (error != null) {
					observation.error(error);
				}
				observation.stop();
			}

		};
	}

}
