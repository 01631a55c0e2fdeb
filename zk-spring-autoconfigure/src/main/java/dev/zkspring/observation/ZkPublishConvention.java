package dev.zkspring.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/** Names and keys of the observation of one write of a ConfigPublisher or ConfigCanaries inside an application; declare a bean of this type to change them. */
public interface ZkPublishConvention extends ObservationConvention<ZkPublishContext> {

	@Override
	default boolean supportsContext(Observation.Context context) {
		return context instanceof ZkPublishContext;
	}

}
