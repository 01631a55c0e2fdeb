package dev.zkspring.observation;

import io.micrometer.common.KeyValues;

/** The default names and keys of the observation of one run of a Quartz job on the leader-gated scheduler; a new trace (docs/observability.md). */
public class DefaultZkJobRunConvention implements ZkJobRunConvention {

	@Override
	public String getName() {
		return "zk.job.run";
	}

	@Override
	public String getContextualName(ZkJobRunContext context) {
		return "zk job " + context.getJobGroup() + "." + context.getJobName();
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(ZkJobRunContext context) {
		return KeyValues.of(ZkObservationDocumentation.JobRunKeys.JOB_GROUP.withValue(context.getJobGroup()), ZkObservationDocumentation.JobRunKeys.JOB_NAME.withValue(context.getJobName()), ZkObservationDocumentation.JobRunKeys.OUTCOME.withValue(context.getOutcome()));
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(ZkJobRunContext context) {
		return KeyValues.of(ZkObservationDocumentation.JobRunKeys.EPOCH.withValue(context.getEpoch()));
	}

}
