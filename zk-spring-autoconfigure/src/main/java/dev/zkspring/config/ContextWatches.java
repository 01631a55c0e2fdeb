package dev.zkspring.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.Stream;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/**
 * One persistent watch ({@link AddWatchMode#PERSISTENT}) on each context node and on each context's
 * canary node, and nothing else: a change is one event and costs no request of its own, so the reload
 * it asks for (one multi-read, {@link ContextReader}) is the instance's only request per change. A
 * persistent watch stays after it fires and on a nonexistent node (it fires when the node is created);
 * the client sets it again by itself when it reconnects within its session, and a new session has none:
 * {@link #arm} adds them again after every (re)connection, and only once the server has answered every
 * add is {@code armed} told (the caller then reads), so no change falls between the read and the watch.
 * Another application's contexts, history records and other contexts' canaries wake nobody here.
 */
final class ContextWatches implements Watcher {

	private static final Log logger = LogFactory.getLog(ZkConfigInitializer.class);

	private final CuratorFramework client;

	/** By the server's path (namespace included), the znode as the application names it. */
	private final Map<String, String> znodes = new LinkedHashMap<>();

	private final Consumer<WatchedEvent> changed;

	private final Runnable armed;

	private volatile boolean closed;

	/** Set when the server does not implement persistent watches (before 3.6): arming again would only cut the connection again. */
	private volatile boolean unsupported;

	/**
	 * @param client the application's client
	 * @param znodes the nodes to watch, as the application names them (without the namespace)
	 * @param changed told of each event on one of them (path without the namespace), on ZooKeeper's event thread
	 * @param armed told once every watch of one {@link #arm} is in place on the server
	 */
	ContextWatches(CuratorFramework client, List<String> znodes, Consumer<WatchedEvent> changed, Runnable armed) {
		this.client = client;
		znodes.forEach((znode) -> this.znodes.put(ZKPaths.fixForNamespace(client.getNamespace(), znode), znode));
		this.changed = changed;
		this.armed = armed;
	}

	/** The nodes to watch for these contexts: each context node, then each canary node. */
	static List<String> of(ConfigContexts contexts) {
		List<String> canaries = contexts.lowestFirst().stream().map(ConfigContexts::canaryNode)
			.filter(Objects::nonNull).toList();
		return Stream.concat(contexts.lowestFirst().stream(), canaries.stream()).toList();
	}

	/** Add every watch (again) on the current session; tell {@code armed} when the server has answered all. */
	void arm() {
		if (this.closed || this.unsupported) {
			return;
		}
		ZooKeeper zooKeeper;
		try {
			zooKeeper = this.client.getZookeeperClient().getZooKeeper();
		}
		catch (Exception ex) {
			// no session to add them on: the next (re)connection arms them
			return;
		}
		AtomicInteger answers = new AtomicInteger(this.znodes.size());
		AtomicBoolean lost = new AtomicBoolean();
		for (String path : this.znodes.keySet()) {
			zooKeeper.addWatch(path, this, AddWatchMode.PERSISTENT, (rc, p, ctx) -> {
				KeeperException.Code code = KeeperException.Code.get(rc);
				if (code == KeeperException.Code.UNIMPLEMENTED) {
					unsupported();
					lost.set(true);
				}
				else if (code == KeeperException.Code.CONNECTIONLOSS || code == KeeperException.Code.SESSIONEXPIRED) {
					// the (re)connection that follows arms them again
					lost.set(true);
				}
				else if (code != KeeperException.Code.OK) {
					logger.warn("Could not watch the znode " + this.znodes.get(p) + " (" + code
							+ "); its changes are read at the next reconnection or reload only");
				}
				if (answers.decrementAndGet() == 0 && !lost.get()) {
					this.armed.run();
				}
			}, null);
		}
	}

	private void unsupported() {
		if (!this.unsupported) {
			this.unsupported = true;
			// off ZooKeeper's event thread: asking the server's version takes a connection of its own
			Thread thread = new Thread(() -> logger.error(ServerVersion.tooOld(this.client).getDescription()
					+ " Changes to the configuration are not applied until the application is restarted on such a server."),
					"zk-config-server-version");
			thread.setDaemon(true);
			thread.start();
		}
	}

	@Override
	public void process(WatchedEvent event) {
		if (this.closed || event.getType() == Event.EventType.None || event.getPath() == null) {
			return;
		}
		String znode = this.znodes.get(event.getPath());
		if (znode != null && event.getType() != Event.EventType.NodeChildrenChanged
				&& event.getType() != Event.EventType.PersistentWatchRemoved) {
			this.changed.accept(new WatchedEvent(event.getType(), event.getState(), znode, event.getZxid()));
		}
	}

	/** Remove the watches from the client (and, when it can still reach the server, from the server). */
	void close() {
		this.closed = true;
		try {
			ZooKeeper zooKeeper = this.client.getZookeeperClient().getZooKeeper();
			for (String path : this.znodes.keySet()) {
				zooKeeper.removeWatches(path, this, WatcherType.Any, true, (rc, p, ctx) -> {
				}, null);
			}
		}
		catch (Exception ex) {
			// a closed client holds no watches
		}
	}

}
