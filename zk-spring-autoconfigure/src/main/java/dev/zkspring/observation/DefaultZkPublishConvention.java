package dev.zkspring.observation;

import io.micrometer.common.KeyValues;

import dev.zkspring.observation.ZkObservationDocumentation.PublishKeys;

/** The default names and keys of the observation of one write of a ConfigPublisher or ConfigCanaries inside an application (docs/observability.md). */
public class DefaultZkPublishConvention implements ZkPublishConvention {

	@Override
	public String getName() {
		return "zk.config.publish";
	}

	@Override
	public String getContextualName(ZkPublishContext context) {
		return "zk config " + context.getOperation();
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(ZkPublishContext context) {
		return KeyValues.of(PublishKeys.CONTEXT.withValue(context.getContext()),
				PublishKeys.OPERATION.withValue(context.getOperation()), PublishKeys.OUTCOME.withValue(context.getOutcome()));
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(ZkPublishContext context) {
		return KeyValues.of(PublishKeys.REVISION.withValue(context.getRevision()));
	}

}
