package dev.zkspring.refresh;

import dev.zkspring.config.ZkConfigCandidate;

/**
 * Wraps every refresh so an instrumentation (Micrometer Observations, {@code dev.zkspring.observation})
 * can time it and tell applied from refused changes, without the refresh depending on Micrometer.
 */
@FunctionalInterface
public interface ZkRefreshInstrumentation {

	/** Instruments nothing. */
	ZkRefreshInstrumentation NONE = (candidate, refresh) -> refresh.run();

	/**
	 * Run the refresh of the candidate, observed; a refused change throws
	 * {@link dev.zkspring.config.ZkConfigChangeRejectedException} out of {@code refresh}.
	 */
	void apply(ZkConfigCandidate candidate, Runnable refresh);

}
