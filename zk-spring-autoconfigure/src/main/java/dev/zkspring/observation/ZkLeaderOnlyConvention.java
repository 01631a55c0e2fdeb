package dev.zkspring.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/** Names and keys of the observation of one call of a {@code @LeaderOnly} method, run or skipped; declare a bean of this type to change them. */
public interface ZkLeaderOnlyConvention extends ObservationConvention<ZkLeaderOnlyContext> {

	@Override
	default boolean supportsContext(Observation.Context context) {
		return context instanceof ZkLeaderOnlyContext;
	}

}
