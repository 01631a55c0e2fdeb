package dev.zkspring.observation;

import io.micrometer.common.KeyValues;

/** The default names and keys of the observation of the wait to take a {@code @ZkLock} or {@code ZkLockTemplate} lock (docs/observability.md). */
public class DefaultZkLockAcquisitionConvention implements ZkLockAcquisitionConvention {

	@Override
	public String getName() {
		return "zk.lock.acquisition";
	}

	@Override
	public String getContextualName(ZkLockAcquisitionContext context) {
		return "zk lock wait " + context.getLockName();
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(ZkLockAcquisitionContext context) {
		return KeyValues.of(ZkObservationDocumentation.LockAcquisitionKeys.LOCK.withValue(context.getLockName()), ZkObservationDocumentation.LockAcquisitionKeys.MODE.withValue(context.getMode()), ZkObservationDocumentation.LockAcquisitionKeys.OUTCOME.withValue(context.getOutcome()));
	}

}
