package dev.zkspring.config;

/**
 * Applies a change of the configuration from ZooKeeper to the running application. Exists so the
 * refresh scope can check every target against the candidate sources before the config center swaps
 * its property source, and then swap and rebind under one lock. Found as a bean; without one the
 * config center swaps the source itself.
 */
@FunctionalInterface
public interface ZkConfigApplier {

	/**
	 * Validate and apply one change. Called on the config center's single refresher thread. Either
	 * throws, having changed nothing, or returns having called {@link ZkConfigCandidate#swap()} (the
	 * config center swaps afterwards if it was not called).
	 * @param candidate the candidate sources and the per-key diff
	 * @throws ZkConfigChangeRejectedException when the change would break a target
	 */
	void apply(ZkConfigCandidate candidate) throws ZkConfigChangeRejectedException;

}
