package dev.zkspring.observation;

import io.micrometer.common.KeyValues;

/** The default names and keys of the observation of one configuration refresh: the change checked, then applied or refused (docs/observability.md). */
public class DefaultZkRefreshConvention implements ZkRefreshConvention {

	@Override
	public String getName() {
		return "zk.config.refresh";
	}

	@Override
	public String getContextualName(ZkRefreshContext context) {
		return "zk config refresh";
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(ZkRefreshContext context) {
		return KeyValues.of(ZkObservationDocumentation.RefreshKeys.CONTEXTS.withValue(context.getContexts()), ZkObservationDocumentation.RefreshKeys.OUTCOME.withValue(context.getOutcome()));
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(ZkRefreshContext context) {
		return KeyValues.of(ZkObservationDocumentation.RefreshKeys.KEYS_CHANGED.withValue(String.valueOf(context.getKeysChanged())));
	}

}
