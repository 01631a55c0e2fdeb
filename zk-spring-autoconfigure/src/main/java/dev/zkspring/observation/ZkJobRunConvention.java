package dev.zkspring.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/** Names and keys of the observation of one run of a Quartz job on the leader-gated scheduler; a new trace; declare a bean of this type to change them. */
public interface ZkJobRunConvention extends ObservationConvention<ZkJobRunContext> {

	@Override
	default boolean supportsContext(Observation.Context context) {
		return context instanceof ZkJobRunContext;
	}

}
