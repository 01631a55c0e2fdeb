package dev.zkspring.crash;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ConnectStringParser;
import org.apache.zookeeper.client.StaticHostProvider;
import org.apache.zookeeper.client.ZKClientConfig;

/**
 * Ends a dead instance's session the way its own client would on a graceful close: a handle that joins
 * the session with its id and password, then closes it. The server then deletes the session's ephemeral
 * nodes (latch and lock nodes), and the waiters behind them move on by their normal path. A process
 * that was alive after all finds its session expired when it next talks to the server, exactly as after
 * a timeout, so its fencing holds.
 */
final class SessionEnder {

	/** What became of the session. */
	enum Outcome {

		/** It was open and is closed now. */
		ENDED,

		/** It had ended already (expired, or ended by another survivor). */
		GONE,

		/** ZooKeeper could not be reached in time: the session expires by itself. */
		UNREACHABLE

	}

	private final CuratorFramework client;

	private final int sessionTimeoutMs;

	SessionEnder(CuratorFramework client, int sessionTimeoutMs) {
		this.client = client;
		this.sessionTimeoutMs = sessionTimeoutMs;
	}

	Outcome end(long session, byte[] password, long timeoutMs) throws Exception {
		String connectString = this.client.getZookeeperClient().getCurrentConnectionString();
		ZKClientConfig config = this.client.getZookeeperClient().getZooKeeper().getClientConfig();
		CountDownLatch answered = new CountDownLatch(1);
		AtomicReference<Watcher.Event.KeeperState> state = new AtomicReference<>();
		Watcher watcher = (event) -> {
			if (event.getType() == Watcher.Event.EventType.None
					&& (event.getState() == Watcher.Event.KeeperState.SyncConnected
							|| event.getState() == Watcher.Event.KeeperState.Expired)) {
				state.compareAndSet(null, event.getState());
				answered.countDown();
			}
		};
		StaticHostProvider hosts = new StaticHostProvider(new ConnectStringParser(connectString).getServerAddresses());
		ZooKeeper handle = new ZooKeeper(connectString, this.sessionTimeoutMs, watcher, session, password, false, hosts,
				config);
		try {
			if (!answered.await(timeoutMs, TimeUnit.MILLISECONDS)) {
				return Outcome.UNREACHABLE;
			}
			return (state.get() == Watcher.Event.KeeperState.SyncConnected) ? Outcome.ENDED : Outcome.GONE;
		}
		finally {
			// on a joined session this sends closeSession and waits for the server's answer
			handle.close((int) Math.min(timeoutMs, Integer.MAX_VALUE));
		}
	}

}
