package dev.zkspring.config;

import org.apache.curator.utils.ZKPaths;

/**
 * Where the publishing tool and the instances meet beside the documents (DESIGN §8): the one place that
 * names the history and canary znodes, so the tool, the instances and the fleet view cannot disagree.
 * <p>
 * Documents live at {@code {root}/{context}} and are the only nodes the instances watch as
 * configuration. Everything else lives under a sibling <em>meta root</em> {@code {root}.meta}
 * ({@code /config} → {@code /config.meta}), outside the watched tree, so writing it reloads nothing:
 * <ul>
 * <li>{@code {root}.meta/history/{context}} — the head: a JSON object {@code revision}, {@code version}
 * (the document node's version that revision produced), {@code time}, {@code author}, {@code message},
 * {@code kind}; written in the same transaction as the document.</li>
 * <li>{@code {root}.meta/history/{context}/{revision, ten digits}} — one revision record: the head's
 * fields plus {@code keys} (added, removed, changed key names) and {@code document} (the document's
 * text as one JSON string).</li>
 * <li>{@code {root}.meta/canary/{context}} — a running canary: {@code revision}, {@code instances} (the
 * fixed list of instance ids), {@code baseVersion}, {@code time}, {@code author}, {@code message} and
 * {@code document} (the candidate's text as one JSON string); its absence means no canary.</li>
 * </ul>
 */
public final class ConfigLayout {

	/** Suffix of the meta root beside a config root. */
	public static final String META_SUFFIX = ".meta";

	private ConfigLayout() {
	}

	/**
	 * The meta root beside a config root.
	 * @param root a config root such as {@code /config}
	 * @return {@code /config.meta}
	 */
	public static String metaRoot(String root) {
		String normalized = ZKPaths.makePath(root, "");
		if ("/".equals(normalized)) {
			throw new IllegalArgumentException("zk.config.root '/' leaves no place beside it for history and"
					+ " canary nodes: use a root such as /config");
		}
		return normalized + META_SUFFIX;
	}

	/** The history head of one context (its children are the revision records). */
	public static String historyNode(String root, String context) {
		return ZKPaths.makePath(metaRoot(root), "history", context);
	}

	/** One revision record of one context. */
	public static String revisionNode(String root, String context, long revision) {
		return ZKPaths.makePath(historyNode(root, context), String.format("%010d", revision));
	}

	/** The parent of every context's canary node. */
	public static String canaryRoot(String root) {
		return ZKPaths.makePath(metaRoot(root), "canary");
	}

	/** The canary node of one context. */
	public static String canaryNode(String root, String context) {
		return ZKPaths.makePath(canaryRoot(root), context);
	}

}
