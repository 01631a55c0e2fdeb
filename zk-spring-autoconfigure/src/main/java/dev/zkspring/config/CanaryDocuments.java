package dev.zkspring.config;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * The canaries of one application's contexts ({@link ConfigCanary}), read with every load in the same
 * multi-read as the documents ({@link ContextReader}): where a context's canary names this instance, its candidate is what the instance runs in
 * place of the base document, parsed by the same parser. A canary node that is not one, and a candidate
 * the parser rejects, are reported once per node version, naming the canary node, and the base document
 * stays. Other instances, and every context without a canary node, keep the base.
 */
final class CanaryDocuments {

	private static final Log logger = LogFactory.getLog(ZkConfigInitializer.class);

	private final String instanceId;

	private final JsonDocumentParser parser;

	/** By canary node, the modification of it reported last. */
	private final Map<String, Long> reported = new ConcurrentHashMap<>();

	private final Set<String> unreadable = ConcurrentHashMap.newKeySet();

	private volatile JsonZnodePropertySourceLocator.RejectionHandler handler = (rejection, kept) -> {
	};

	private final Supplier<ValueDecryption> decryption;

	CanaryDocuments(String instanceId, JsonDocumentParser parser, Supplier<ValueDecryption> decryption) {
		this.instanceId = instanceId;
		this.parser = parser;
		this.decryption = decryption;
	}

	/** Report refusals to this handler from now on, each refused canary again once. */
	void onRejection(JsonZnodePropertySourceLocator.RejectionHandler handler) {
		this.handler = handler;
		this.reported.clear();
	}

	/**
	 * The canary nodes of these contexts ({@link #nodes}), as read in the same multi-read as the documents.
	 * @param reads by context znode, what was read of its canary node
	 * @return by context znode, its canary node as read, for each context that has one
	 */
	Map<String, Read> read(Map<String, ContextReader.Read> reads) {
		Map<String, Read> canaries = new HashMap<>();
		reads.forEach((znode, read) -> {
			if (read.error() == KeeperException.Code.NOAUTH) {
				unreadable(read.znode());
			}
			else if (read.stat() != null) {
				// one too large to be read within the packet limit has no data: refused as not a canary node
				canaries.put(znode, new Read(read.znode(), read.data(), read.stat()));
				this.unreadable.remove(read.znode());
			}
			else {
				this.unreadable.remove(read.znode());
			}
		});
		return canaries;
	}

	/** By context znode, its canary node; contexts under the root {@code /} have none. */
	static Map<String, String> nodes(List<String> znodes) {
		Map<String, String> nodes = new LinkedHashMap<>();
		for (String znode : znodes) {
			String canary = ConfigContexts.canaryNode(znode);
			if (canary != null) {
				nodes.put(znode, canary);
			}
		}
		return nodes;
	}

	private void unreadable(String znode) {
		if (this.unreadable.add(znode)) {
			logger.warn("The canary znode " + znode + " cannot be read (NOAUTH): this instance runs the base documents; "
					+ "give the identity in zk.auth.* read permission on it to take part in canaries");
		}
	}

	/**
	 * What this instance runs for one context.
	 * @param znode the context node
	 * @param baseVersion the context node's version as read; -1 when it is missing
	 * @param base the base document's source (or its last good version), {@code null} when none
	 * @param read the context's canary node, {@code null} when there is none
	 * @return the candidate's source when the canary names this instance and its candidate is accepted, else {@code base}
	 */
	@Nullable ZnodePropertySource choose(String znode, int baseVersion, @Nullable ZnodePropertySource base,
			@Nullable Read read) {
		if (read == null) {
			String canary = ConfigContexts.canaryNode(znode);
			if (canary != null) {
				this.reported.remove(canary);
			}
			return base;
		}
		ConfigCanary canary;
		try {
			if (read.data() == null) {
				throw new IllegalArgumentException("it is " + read.stat().getDataLength() + " bytes, too large to be "
						+ "read within the client's packet limit (jute.maxbuffer)");
			}
			canary = ConfigCanary.parse(read.data());
		}
		catch (IllegalArgumentException ex) {
			refuse(read, "it is not a canary node: " + ex.getMessage(), null, base);
			return base;
		}
		if (!canary.includes(this.instanceId)) {
			this.reported.remove(read.znode());
			return base;
		}
		try {
			Map<String, String> properties = this.parser.parse(canary.documentBytes());
			// decrypted as a base document is: its {cipher} values stay ciphertext in the snapshot
			ZnodePropertySource candidate = this.decryption.get().source(znode, baseVersion, properties,
					new ZnodePropertySource.Candidate(read.znode(), read.stat().getVersion(), canary.revision(),
							canary.digest()));
			this.reported.remove(read.znode());
			return candidate;
		}
		catch (DocumentRejectedException ex) {
			refuse(read, "its candidate document (revision " + canary.revision() + ") is rejected: " + ex.reason(),
					ex.key(), base);
			return base;
		}
	}

	private void refuse(Read read, String reason, @Nullable String key, @Nullable ZnodePropertySource base) {
		Long previous = this.reported.put(read.znode(), read.stat().getMzxid());
		if (previous == null || previous != read.stat().getMzxid()) {
			this.handler.rejected(new JsonZnodePropertySourceLocator.Rejection(read.znode(), read.stat().getVersion(),
					reason, key), base);
		}
	}

	/**
	 * A canary node as read.
	 * @param znode the canary node
	 * @param data its content
	 * @param stat its stat
	 */
	record Read(String znode, byte @Nullable [] data, Stat stat) {

	}

}
