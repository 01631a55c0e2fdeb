package dev.zkspring.config;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Where the configuration in force came from, so health checks can report an application that runs
 * on its last-known-good snapshot (or without ZooKeeper's configuration) as degraded.
 */
public final class ZkConfigStatus {

	private volatile Source source;

	private final List<String> contextZnodes;

	private final List<Runnable> nodeListeners = new CopyOnWriteArrayList<>();

	private volatile boolean watched;

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

	/**
	 * Whether the config center watches its context and canary nodes ({@code zk.config.watch}), so that
	 * {@link #onNodeChanged} listeners hear of their changes.
	 */
	public boolean isWatched() {
		return this.watched;
	}

	/**
	 * Be told, on ZooKeeper's event thread, of each change ZooKeeper reports on a context or canary node
	 * while {@link #isWatched()}. Code that wants to hear of these nodes' changes listens here instead of
	 * setting a watch of its own through the application's client: on a server before 3.9 (without
	 * ZOOKEEPER-4466) a one-shot watch of the same session on a node replaces the config center's
	 * persistent one, which then ends with the next change, and a burst's last write would never be read.
	 * A listener must return quickly and not throw.
	 */
	public void onNodeChanged(Runnable listener) {
		this.nodeListeners.add(listener);
	}

	void watched() {
		this.watched = true;
	}

	void nodeChanged() {
		for (Runnable listener : this.nodeListeners) {
			try {
				listener.run();
			}
			catch (RuntimeException ex) {
				// one listener's failure must not keep the others, or the reload, from the change
			}
		}
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
