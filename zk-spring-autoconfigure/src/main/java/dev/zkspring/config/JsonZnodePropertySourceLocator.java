package dev.zkspring.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.RetryLoop;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.PropertySource;

/**
 * The built-in locator: one JSON document per context znode ({@link ConfigContexts}), highest
 * precedence first, all read in one multi-read. A context whose document is rejected keeps its last
 * good version; the first rejection of each node version goes to the {@link RejectionHandler}, which
 * fails the startup, logs, or publishes an event. A context that cannot be read (no permission) keeps
 * its last good version too, without affecting the others, and makes the load incomplete (no snapshot
 * is written from it).
 */
final class JsonZnodePropertySourceLocator implements PropertySourceLocator, Ordered {

	private final Map<String, ZnodePropertySource> lastGood = new ConcurrentHashMap<>();

	private final Map<String, Long> rejected = new ConcurrentHashMap<>();

	private volatile @Nullable ConfigContexts contexts;

	private volatile @Nullable JsonDocumentParser parser;

	private volatile RejectionHandler rejectionHandler = (rejection, kept) -> {
	};

	private volatile @Nullable List<ZnodePropertySource> restored;

	private volatile UnreadableHandler unreadableHandler = (znode, code, kept) -> {
	};

	private final Map<String, KeeperException.Code> unreadable = new ConcurrentHashMap<>();

	private volatile boolean complete = true;

	@Override
	public int getOrder() {
		return 0;
	}

	void configure(ConfigContexts contexts, long maxDocumentBytes) {
		this.contexts = contexts;
		this.parser = new JsonDocumentParser(maxDocumentBytes);
	}

	void onRejection(RejectionHandler rejectionHandler) {
		this.rejectionHandler = rejectionHandler;
	}

	void onUnreadable(UnreadableHandler unreadableHandler) {
		this.unreadableHandler = unreadableHandler;
	}

	/** Answer the next {@link #locate} from a snapshot, and keep it as the last good version. */
	void restore(List<ZnodePropertySource> snapshot) {
		snapshot.forEach((source) -> this.lastGood.put(source.getZnode(), source));
		this.restored = List.copyOf(snapshot);
	}

	@Override
	public List<PropertySource<?>> locate(ConfigurableEnvironment environment, CuratorFramework client) throws Exception {
		List<ZnodePropertySource> snapshot = this.restored;
		if (snapshot != null) {
			this.restored = null;
			this.complete = true;
			return List.copyOf(snapshot);
		}
		ConfigContexts contexts = Objects.requireNonNull(this.contexts, "not configured");
		List<String> znodes = contexts.highestFirst();
		List<OpResult> results = readAll(client, znodes);
		boolean complete = true;
		List<PropertySource<?>> sources = new ArrayList<>();
		for (int i = 0; i < znodes.size(); i++) {
			String znode = znodes.get(i);
			OpResult result = results.get(i);
			ZnodePropertySource source;
			if (result instanceof OpResult.GetDataResult read) {
				this.unreadable.remove(znode);
				source = accept(znode, read.getData(), read.getStat());
			}
			else {
				KeeperException.Code code = KeeperException.Code.get(((OpResult.ErrorResult) result).getErr());
				if (code == KeeperException.Code.NONODE) {
					this.unreadable.remove(znode);
					this.lastGood.remove(znode);
					this.rejected.remove(znode);
					continue;
				}
				// this context cannot be read (an ACL for another identity...): the others still can
				complete = false;
				source = this.lastGood.get(znode);
				if (this.unreadable.put(znode, code) != code) {
					this.unreadableHandler.unreadable(znode, code, source);
				}
			}
			if (source != null) {
				sources.add(source);
			}
		}
		this.complete = complete;
		return sources;
	}

	/** Whether the last {@link #locate} read every context (a missing znode counts as read). */
	boolean lastLocateComplete() {
		return this.complete;
	}

	/**
	 * Read every context in one multi-read: one round trip, and every document as of one point in the
	 * ensemble's history, so a transaction that writes several contexts is never seen half.
	 */
	private static List<OpResult> readAll(CuratorFramework client, List<String> znodes) throws Exception {
		List<Op> reads = znodes.stream()
			.map((znode) -> Op.getData(ZKPaths.fixForNamespace(client.getNamespace(), znode)))
			.toList();
		return RetryLoop.callWithRetry(client.getZookeeperClient(),
				() -> client.getZookeeperClient().getZooKeeper().multi(reads));
	}

	private @Nullable ZnodePropertySource accept(String znode, byte @Nullable [] data, Stat stat) {
		try {
			Map<String, String> properties = Objects.requireNonNull(this.parser).parse((data != null) ? data : new byte[0]);
			ZnodePropertySource source = new ZnodePropertySource(znode, stat.getVersion(), properties);
			this.lastGood.put(znode, source);
			this.rejected.remove(znode);
			return source;
		}
		catch (DocumentRejectedException ex) {
			ZnodePropertySource kept = this.lastGood.get(znode);
			Long previous = this.rejected.put(znode, stat.getMzxid());
			if (previous == null || previous != stat.getMzxid()) {
				this.rejectionHandler.rejected(new Rejection(znode, stat.getVersion(), ex.reason(), ex.key()), kept);
			}
			return kept;
		}
	}

	/** Decides what an unreadable context means: a failed startup or a log line. */
	@FunctionalInterface
	interface UnreadableHandler {

		/**
		 * Handle a context that could not be read.
		 * @param znode the context node
		 * @param code ZooKeeper's error, such as {@code NOAUTH}
		 * @param kept the last good version that stays in force, or {@code null} when there is none
		 */
		void unreadable(String znode, KeeperException.Code code, @Nullable ZnodePropertySource kept);

	}

	/** A rejected context document: which znode and version, why, and the offending key if any. */
	record Rejection(String znode, int version, String reason, @Nullable String key) {

	}

	/** Decides what a rejection means: a failed startup, a log line, an event. */
	@FunctionalInterface
	interface RejectionHandler {

		/**
		 * Handle a rejected document.
		 * @param rejection what was rejected and why
		 * @param kept the last good version that stays in force, or {@code null} when there is none
		 */
		void rejected(Rejection rejection, @Nullable ZnodePropertySource kept);

	}

}
