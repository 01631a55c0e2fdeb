package dev.zkspring.observation;

import io.micrometer.common.KeyValues;

/** The default names and keys of the observation of one leadership term of this instance, from granted to revoked (docs/observability.md). */
public class DefaultZkLeadershipTermConvention implements ZkLeadershipTermConvention {

	@Override
	public String getName() {
		return "zk.leader.term";
	}

	@Override
	public String getContextualName(ZkLeadershipTermContext context) {
		return "zk leadership " + context.getGroup();
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(ZkLeadershipTermContext context) {
		return KeyValues.of(ZkObservationDocumentation.LeadershipTermKeys.GROUP.withValue(context.getGroup()), ZkObservationDocumentation.LeadershipTermKeys.REASON.withValue(context.getReason()));
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(ZkLeadershipTermContext context) {
		return KeyValues.of(ZkObservationDocumentation.LeadershipTermKeys.EPOCH.withValue(context.getEpoch()));
	}

}
