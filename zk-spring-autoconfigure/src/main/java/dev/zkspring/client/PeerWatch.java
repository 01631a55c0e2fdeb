package dev.zkspring.client;

/**
 * Lets a feature that waits behind another process's node (a lock waiter behind the holder) ask the crash
 * detector to watch that process, without depending on the detector: when the process dies, its session
 * is ended at once instead of after the session timeout. {@link #NONE} when detection is off.
 */
@FunctionalInterface
public interface PeerWatch {

	/** Watches nothing: waiting ends when the node goes, at the latest with its session. */
	PeerWatch NONE = (node, session) -> Watching.NONE;

	/**
	 * Watch the process that owns a node this instance waits behind, until the returned handle is closed.
	 * @param node the node's path, named in the log line if the process dies
	 * @param session the node's ephemeral owner, the session to end if the process dies
	 * @return the handle that ends the watch; never blocks
	 */
	Watching watch(String node, long session);

	/** One watch; closing it twice is harmless. */
	@FunctionalInterface
	interface Watching extends AutoCloseable {

		/** A handle that watches nothing. */
		Watching NONE = () -> {
		};

		@Override
		void close();

	}

}
