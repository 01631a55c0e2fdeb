package dev.zkspring.observation;

import io.micrometer.common.KeyValues;

/** The default names and keys of the observation of the hold of a lock, with the guarded body inside its scope (docs/observability.md). */
public class DefaultZkLockHoldConvention implements ZkLockHoldConvention {

	@Override
	public String getName() {
		return "zk.lock.holding";
	}

	@Override
	public String getContextualName(ZkLockHoldContext context) {
		return "zk lock hold " + context.getLockName();
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(ZkLockHoldContext context) {
		return KeyValues.of(ZkObservationDocumentation.LockHoldKeys.LOCK.withValue(context.getLockName()), ZkObservationDocumentation.LockHoldKeys.MODE.withValue(context.getMode()), ZkObservationDocumentation.LockHoldKeys.OUTCOME.withValue(context.getOutcome()));
	}

}
