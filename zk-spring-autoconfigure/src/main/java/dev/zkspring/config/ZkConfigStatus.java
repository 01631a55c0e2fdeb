package dev.zkspring.config;

/**
 * Where the configuration in force came from, so health checks can report an application that runs
 * on its last-known-good snapshot (or without ZooKeeper's configuration) as degraded.
 */
public final class ZkConfigStatus {

	private volatile Source source;

	ZkConfigStatus(Source source) {
		this.source = source;
	}

	/** Where the configuration in force came from. */
	public Source getSource() {
		return this.source;
	}

	/** Whether the application runs without a current configuration from ZooKeeper. */
	public boolean isDegraded() {
		return this.source != Source.ZOOKEEPER;
	}

	void setSource(Source source) {
		this.source = source;
	}

	@Override
	public String toString() {
		return "ZkConfigStatus[" + this.source + "]";
	}

	/** Origin of the configuration in force. */
	public enum Source {

		/** Read from ZooKeeper, at startup or since. */
		ZOOKEEPER,

		/** The last-known-good snapshot: ZooKeeper could not be reached at startup and has not been since. */
		SNAPSHOT,

		/** Nothing: ZooKeeper could not be reached, there was no snapshot and fail-fast is off. */
		NONE

	}

}
