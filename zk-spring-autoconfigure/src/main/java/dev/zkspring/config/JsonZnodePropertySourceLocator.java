package dev.zkspring.config;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
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
 * precedence first, read as of one point in the ensemble's history in multi-reads that fit the
 * client's packet limit ({@link ContextReader}). A context whose document is rejected keeps its last
 * good version; the first rejection of each node version goes to the {@link RejectionHandler}, which
 * fails the startup, logs, or publishes an event. A context that cannot be read (no permission) keeps
 * its last good version too, without affecting the others, and makes the load incomplete (no snapshot
 * is written from it). A context whose canary names this instance gets the candidate in place of its
 * base document ({@link CanaryDocuments}).
 */
final class JsonZnodePropertySourceLocator implements PropertySourceLocator, Ordered {

	private final Map<String, ZnodePropertySource> lastGood = new ConcurrentHashMap<>();

	private final Map<String, Long> rejected = new ConcurrentHashMap<>();

	/** Each context's size at the last load, so a reload is one multi-read ({@link ContextReader}). */
	private final Map<String, Integer> knownSizes = new ConcurrentHashMap<>();

	/** The contexts found too large to read, planned from their stats until their own change (see {@link TooLarge}). */
	private final TooLarge tooLarge = new TooLarge();

	private volatile @Nullable ConfigContexts contexts;

	private volatile @Nullable JsonDocumentParser parser;

	private volatile @Nullable CanaryDocuments canaries;

	private volatile ValueDecryption decryption = ValueDecryption.NONE;

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

	/**
	 * @param contexts the context znodes to read
	 * @param maxDocumentBytes the largest document accepted
	 * @param instanceId this instance's id, which a canary names to give it the candidate
	 */
	void configure(ConfigContexts contexts, long maxDocumentBytes, String instanceId) {
		this.contexts = contexts;
		JsonDocumentParser parser = new JsonDocumentParser(maxDocumentBytes);
		this.parser = parser;
		this.canaries = new CanaryDocuments(instanceId, parser, () -> this.decryption);
	}

	/** Where a refused canary node or candidate is reported (the base document stays in force). */
	void onCanaryRejection(RejectionHandler handler) {
		Objects.requireNonNull(this.canaries, "not configured").onRejection(handler);
	}

	/** How {@code {cipher}} values are decrypted; a document holding one is refused until keys are given. */
	void decryptWith(ValueDecryption decryption) {
		this.decryption = decryption;
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
		// the canary nodes in the same multi-read as the documents: one request per reload in all
		Map<String, String> canaryNodes = CanaryDocuments.nodes(znodes);
		List<String> nodes = new ArrayList<>(znodes);
		nodes.addAll(canaryNodes.values());
		List<ContextReader.Read> all = new ContextReader(client, this.knownSizes, this.tooLarge).read(nodes,
				Set.copyOf(canaryNodes.values()));
		List<ContextReader.Read> reads = all.subList(0, znodes.size());
		Map<String, ContextReader.Read> canaryRead = new HashMap<>();
		int next = znodes.size();
		for (String znode : canaryNodes.keySet()) {
			canaryRead.put(znode, all.get(next++));
		}
		CanaryDocuments canaries = Objects.requireNonNull(this.canaries);
		Map<String, CanaryDocuments.Read> canaryReads = canaries.read(canaryRead);
		boolean complete = true;
		List<PropertySource<?>> sources = new ArrayList<>();
		for (ContextReader.Read read : reads) {
			String znode = read.znode();
			ZnodePropertySource source;
			if (read.tooLargeFor() > 0) {
				this.unreadable.remove(znode);
				Stat stat = read.requireStat();
				source = reject(znode, stat, "it is " + stat.getDataLength() + " bytes, too large to be read within "
						+ "the client's packet limit (jute.maxbuffer, " + read.tooLargeFor() + " bytes); keep each "
						+ "context document under " + (read.tooLargeFor() - ContextReader.OVERHEAD) + " bytes, or raise "
						+ "jute.maxbuffer on the clients", null);
			}
			else if (read.error() == null) {
				this.unreadable.remove(znode);
				source = accept(znode, read.data(), read.requireStat());
			}
			else {
				KeeperException.Code code = read.error();
				if (code == KeeperException.Code.NONODE) {
					this.unreadable.remove(znode);
					this.lastGood.remove(znode);
					this.rejected.remove(znode);
					source = null;
				}
				else {
					// this context cannot be read (an ACL for another identity...): the others still can
					complete = false;
					source = this.lastGood.get(znode);
					if (this.unreadable.put(znode, code) != code) {
						this.unreadableHandler.unreadable(znode, code, source);
					}
				}
			}
			// a canary naming this instance replaces the base document, whatever state that is in
			source = canaries.choose(znode, (read.stat() != null) ? read.stat().getVersion() : -1, source,
					canaryReads.get(znode));
			if (source != null) {
				sources.add(source);
			}
		}
		this.complete = complete;
		return sources;
	}

	/** A watch reported a change of this node (a context or canary node): a size remembered for it may be wrong. */
	void nodeChanged(String znode) {
		this.tooLarge.changed(znode);
	}

	/** Whether the last {@link #locate} read every context (a missing znode counts as read). */
	boolean lastLocateComplete() {
		return this.complete;
	}

	private @Nullable ZnodePropertySource accept(String znode, byte @Nullable [] data, Stat stat) {
		try {
			Map<String, String> properties = Objects.requireNonNull(this.parser).parse((data != null) ? data : new byte[0]);
			ZnodePropertySource source = this.decryption.source(znode, stat.getVersion(), properties);
			this.lastGood.put(znode, source);
			this.rejected.remove(znode);
			return source;
		}
		catch (DocumentRejectedException ex) {
			return reject(znode, stat, ex.reason(), ex.key());
		}
	}

	/** Keep the last good version; report the first rejection of each node version. */
	private @Nullable ZnodePropertySource reject(String znode, Stat stat, String reason, @Nullable String key) {
		ZnodePropertySource kept = this.lastGood.get(znode);
		Long previous = this.rejected.put(znode, stat.getMzxid());
		if (previous == null || previous != stat.getMzxid()) {
			this.rejectionHandler.rejected(new Rejection(znode, stat.getVersion(), reason, key), kept);
		}
		return kept;
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
