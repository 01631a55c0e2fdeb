package dev.zkspring.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/** Names and keys of the observation of one configuration refresh: the change checked, then applied or refused; declare a bean of this type to change them. */
public interface ZkRefreshConvention extends ObservationConvention<ZkRefreshContext> {

	@Override
	default boolean supportsContext(Observation.Context context) {
		return context instanceof ZkRefreshContext;
	}

}
