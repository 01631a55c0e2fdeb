package dev.zkspring.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/** Names and keys of the observation of the wait to take a {@code @ZkLock} or {@code ZkLockTemplate} lock; declare a bean of this type to change them. */
public interface ZkLockAcquisitionConvention extends ObservationConvention<ZkLockAcquisitionContext> {

	@Override
	default boolean supportsContext(Observation.Context context) {
		return context instanceof ZkLockAcquisitionContext;
	}

}
