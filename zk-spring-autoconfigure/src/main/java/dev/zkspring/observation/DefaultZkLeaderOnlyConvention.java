package dev.zkspring.observation;

import io.micrometer.common.KeyValues;

/** The default names and keys of the observation of one call of a {@code @LeaderOnly} method, run or skipped (docs/observability.md). */
public class DefaultZkLeaderOnlyConvention implements ZkLeaderOnlyConvention {

	@Override
	public String getName() {
		return "zk.leader.only";
	}

	@Override
	public String getContextualName(ZkLeaderOnlyContext context) {
		return "zk leader-only " + context.getMethod();
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(ZkLeaderOnlyContext context) {
		return KeyValues.of(ZkObservationDocumentation.LeaderOnlyKeys.METHOD.withValue(context.getMethod()), ZkObservationDocumentation.LeaderOnlyKeys.GROUP.withValue(context.getGroup()), ZkObservationDocumentation.LeaderOnlyKeys.OUTCOME.withValue(context.getOutcome()));
	}

}
