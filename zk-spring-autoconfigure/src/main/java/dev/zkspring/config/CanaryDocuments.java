package dev.zkspring.config;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * The canaries of one application's contexts ({@link ConfigCanary}), read with every load beside the
 * documents: where a context's canary names this instance, its candidate is what the instance runs in
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
	 * Read the canary nodes of these contexts: a listing of each canary root (nothing more when there is
	 * no canary), then each canary node of a context of ours.
	 * @return by context znode, its canary node as read
	 */
	Map<String, Read> read(CuratorFramework client, List<String> znodes) throws Exception {
		Map<String, Set<String>> listed = new HashMap<>();
		Map<String, Read> reads = new HashMap<>();
		for (String znode : znodes) {
			String canary = ConfigContexts.canaryNode(znode);
			if (canary == null) {
				continue;
			}
			ZKPaths.PathAndNode parts = ZKPaths.getPathAndNode(canary);
			Set<String> children = listed.get(parts.getPath());
			if (children == null) {
				children = children(client, parts.getPath());
				listed.put(parts.getPath(), children);
			}
			if (children.contains(parts.getNode())) {
				Stat stat = new Stat();
				try {
					byte[] data = client.getData().storingStatIn(stat).forPath(canary);
					reads.put(znode, new Read(canary, data, stat));
					this.unreadable.remove(canary);
				}
				catch (KeeperException.NoNodeException ex) {
					// ended between the listing and the read: no canary
				}
				catch (KeeperException.NoAuthException ex) {
					unreadable(canary);
				}
			}
		}
		return reads;
	}

	private Set<String> children(CuratorFramework client, String root) throws Exception {
		try {
			Set<String> children = new HashSet<>(client.getChildren().forPath(root));
			this.unreadable.remove(root);
			return children;
		}
		catch (KeeperException.NoNodeException ex) {
			return Set.of();
		}
		catch (KeeperException.NoAuthException ex) {
			unreadable(root);
			return Set.of();
		}
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
					new ZnodePropertySource.Candidate(read.znode(), read.stat().getVersion(), canary.revision()));
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
