package dev.zkspring.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/** Names and keys of the observation of the hold of a lock, with the guarded body inside its scope; declare a bean of this type to change them. */
public interface ZkLockHoldConvention extends ObservationConvention<ZkLockHoldContext> {

	@Override
	default boolean supportsContext(Observation.Context context) {
		return context instanceof ZkLockHoldContext;
	}

}
