package dev.zkspring.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/** Names and keys of the observation of one leadership term of this instance, from granted to revoked; declare a bean of this type to change them. */
public interface ZkLeadershipTermConvention extends ObservationConvention<ZkLeadershipTermContext> {

	@Override
	default boolean supportsContext(Observation.Context context) {
		return context instanceof ZkLeadershipTermContext;
	}

}
