package dev.zkspring.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.PropertySource;

/**
 * The built-in locator: one JSON document per context znode ({@link ConfigContexts}), highest
 * precedence first. A context whose document is rejected keeps its last good version; the first
 * rejection of each node version goes to the {@link RejectionHandler}, which fails the startup, logs,
 * or publishes an event.
 */
final class JsonZnodePropertySourceLocator implements PropertySourceLocator, Ordered {

	private final Map<String, ZnodePropertySource> lastGood = new ConcurrentHashMap<>();

	private final Map<String, Long> rejected = new ConcurrentHashMap<>();

	private volatile @Nullable ConfigContexts contexts;

	private volatile @Nullable JsonDocumentParser parser;

	private volatile RejectionHandler rejectionHandler = (rejection, kept) -> {
	};

	private volatile @Nullable List<ZnodePropertySource> restored;

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
			return List.copyOf(snapshot);
		}
		ConfigContexts contexts = Objects.requireNonNull(this.contexts, "not configured");
		List<PropertySource<?>> sources = new ArrayList<>();
		for (String znode : contexts.highestFirst()) {
			ZnodePropertySource source = read(client, znode);
			if (source != null) {
				sources.add(source);
			}
		}
		return sources;
	}

	private @Nullable ZnodePropertySource read(CuratorFramework client, String znode) throws Exception {
		Stat stat = new Stat();
		byte[] data;
		try {
			data = client.getData().storingStatIn(stat).forPath(znode);
		}
		catch (KeeperException.NoNodeException ex) {
			this.lastGood.remove(znode);
			this.rejected.remove(znode);
			return null;
		}
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
