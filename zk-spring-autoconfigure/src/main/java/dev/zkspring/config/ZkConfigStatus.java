package dev.zkspring.config;

import java.util.List;

/**
 * Where the configuration in force came from, so health checks can report an application that runs
 * on its last-known-good snapshot (or without ZooKeeper's configuration) as degraded.
 */
public final class ZkConfigStatus {

	private volatile Source source;

	private final List<String> contextZnodes;

	ZkConfigStatus(Source source, List<String> contextZnodes) {
		this.source = source;
		this.contextZnodes = List.copyOf(contextZnodes);
	}

	/** The context znodes this application reads, the highest precedence first (missing ones included). */
	public List<String> getContextZnodes() {
		return this.contextZnodes;
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
