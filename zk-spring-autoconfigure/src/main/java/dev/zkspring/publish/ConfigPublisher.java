package dev.zkspring.publish;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

import dev.zkspring.config.ConfigDocuments;
import dev.zkspring.config.ConfigLayout;

/**
 * Publishes context documents safely, from any program with a {@link CuratorFramework}: each write is
 * validated with the instances' own rules, made only if the document node is still at the version read
 * (or the one expected), and recorded as a revision in the same transaction. History only grows: a
 * rollback publishes an earlier revision's document as a new revision.
 *
 * <pre>
 * ConfigPublisher publisher = new ConfigPublisher(client, "/config");
 * publisher.put("orders", json, Change.by("alice", "raise the limit"));
 * </pre>
 *
 * Errors a caller can cause are {@link PublishException}s naming the context, key or revision; ZooKeeper's
 * own failures (connection loss, no permission) are its {@link KeeperException}s.
 */
public final class ConfigPublisher {

	/** The author recorded for a write made outside the tool. */
	public static final String UNKNOWN_AUTHOR = "unknown";

	private final CuratorFramework client;

	private final String root;

	private final long maxBytes;

	private final HistoryStore store;

	/** Runs between reading a context and writing it: the seam race tests force interleavings with. */
	volatile Runnable beforeWrite = () -> {
	};

	private volatile PublishInstrumentation instrumentation = PublishInstrumentation.NONE;

	/** A publisher for documents under a config root, with the instances' default size limit. */
	public ConfigPublisher(CuratorFramework client, String root) {
		this(client, root, ConfigDocuments.DEFAULT_MAX_BYTES);
	}

	/**
	 * A publisher for documents under a config root.
	 * @param client a started client (its namespace applies)
	 * @param root the config root, as the instances' {@code zk.config.root}
	 * @param maxDocumentBytes the instances' {@code zk.config.max-document-size}, in bytes
	 */
	public ConfigPublisher(CuratorFramework client, String root, long maxDocumentBytes) {
		this.client = client;
		this.root = ZKPaths.makePath(root, "");
		ConfigLayout.metaRoot(this.root);
		this.maxBytes = maxDocumentBytes;
		this.store = new HistoryStore(client, this.root, maxDocumentBytes);
	}

	/**
	 * Have each write (put, rollback, delete, import) seen by the application's observability (see
	 * {@code ZkObservations#instrument(ConfigPublisher)}); reads and dry-run diffs are not writes.
	 */
	public void setInstrumentation(PublishInstrumentation instrumentation) {
		this.instrumentation = instrumentation;
	}

	/** The contexts under the root, by name. */
	public List<String> contexts() throws Exception {
		try {
			List<String> names = new ArrayList<>(this.client.getChildren().forPath(this.root));
			names.sort(Comparator.naturalOrder());
			return names;
		}
		catch (KeeperException.NoNodeException ex) {
			return List.of();
		}
	}

	/** A context's document as it is now (version {@code -1} when the node does not exist). */
	public ConfigDocument get(String context) throws Exception {
		ContextNames.check(context);
		Stat stat = new Stat();
		try {
			byte[] data = this.client.getData().storingStatIn(stat).forPath(this.store.documentNode(context));
			return new ConfigDocument(context, (data != null) ? data : new byte[0], stat.getVersion());
		}
		catch (KeeperException.NoNodeException ex) {
			return new ConfigDocument(context, new byte[0], -1);
		}
	}

	/**
	 * Check a document as the instances would, and as this tool requires (not empty).
	 * @return its flat keys
	 * @throws PublishException ({@code INVALID}) naming the context, the key if one is at fault, and the rule
	 */
	public Map<String, String> validate(String context, byte[] document) {
		return validate(context, document, this.maxBytes);
	}

	/**
	 * Check a document as {@link #validate(String, byte[])} does, with no ZooKeeper: for a directory checked
	 * before it is published (a pull request's CI).
	 * @param maxDocumentBytes the instances' {@code zk.config.max-document-size}, in bytes
	 * @return its flat keys
	 * @throws PublishException ({@code INVALID}) naming the context, the key if one is at fault, and the rule
	 */
	public static Map<String, String> validate(String context, byte[] document, long maxDocumentBytes) {
		ContextNames.check(context);
		if (new String(document, StandardCharsets.UTF_8).isBlank()) {
			throw new PublishException(PublishException.Reason.INVALID, "context '" + context
					+ "': the document is empty; publish {} to empty a context");
		}
		try {
			return ConfigDocuments.validate(document, maxDocumentBytes);
		}
		catch (ConfigDocuments.InvalidDocumentException ex) {
			throw new PublishException(PublishException.Reason.INVALID, "context '" + context + "': "
					+ ex.getMessage() + "; fix the document, nothing was written");
		}
	}

	/**
	 * Validate and publish a document as a new revision, if the node is still at the version read (or the
	 * one the change expects). A document equal to the one in force writes nothing.
	 */
	public Publication put(String context, byte[] document, Change change) throws Exception {
		return this.instrumentation.observe("put", context, change.dryRun(),
				() -> publish(context, document, change, "put"));
	}

	/** Publish an earlier revision's document as a new revision, with the same compare-and-set. */
	public Publication rollback(String context, long revision, Change change) throws Exception {
		return this.instrumentation.observe("rollback", context, change.dryRun(),
				() -> rollbackTo(context, revision, change));
	}

	private Publication rollbackTo(String context, long revision, Change change) throws Exception {
		Revision earlier = revision(context, revision);
		if (earlier.document() == null) {
			throw new PublishException(PublishException.Reason.NOT_FOUND, "context '" + context + "': revision "
					+ revision + " records the node's deletion, there is no document to restore; pick another revision");
		}
		Change described = (change.message() != null) ? change
				: change.withMessage("rollback to revision " + revision);
		return publish(context, earlier.document().getBytes(StandardCharsets.UTF_8), described, "rollback");
	}

	Publication publish(String context, byte[] document, Change change, String kind) throws Exception {
		Map<String, String> after = validate(context, document);
		ContextState state = this.store.read(context);
		Integer expected = change.expectedVersion();
		if (expected != null && expected != state.version()) {
			throw new PublishException(PublishException.Reason.CONFLICT, "context '" + context + "' is at version "
					+ state.version() + ", not " + expected + " (--expect-version): nothing was written; read it "
					+ "again (config get) and retry");
		}
		Map<String, String> before = state.flat(this.maxBytes);
		KeyDiff diff = KeyDiff.between(before, after);
		if (change.dryRun() || (state.exists() && Arrays.equals(state.data(), document))) {
			return new Publication(context, false, -1, state.version(), diff, before, after);
		}
		Revision written = this.store.publish(state, document, diff, change, kind, this.beforeWrite);
		return new Publication(context, true, written.revision(), written.version(), diff, before, after);
	}

	/**
	 * Delete a context's document node, if it is still at the version read (or the one the change expects),
	 * recording the deletion as a revision (kind {@code delete}, no document) in the same transaction: its
	 * history stays, and a rollback restores an earlier document. A context that does not exist writes nothing.
	 */
	public Publication delete(String context, Change change) throws Exception {
		return this.instrumentation.observe("delete", context, change.dryRun(), () -> deleteNode(context, change));
	}

	private Publication deleteNode(String context, Change change) throws Exception {
		ContextNames.check(context);
		ContextState state = this.store.read(context);
		Integer expected = change.expectedVersion();
		if (expected != null && expected != state.version()) {
			throw new PublishException(PublishException.Reason.CONFLICT, "context '" + context + "' is at version "
					+ state.version() + ", not " + expected + ": nothing was deleted; read it again and retry");
		}
		Map<String, String> before = state.flat(this.maxBytes);
		KeyDiff diff = KeyDiff.between(before, Map.of());
		if (change.dryRun() || !state.exists()) {
			return new Publication(context, false, -1, state.version(), diff, before, Map.of());
		}
		Revision written = this.store.write(state, null, null, diff, change, HistoryStore.DELETE, (op) -> List.of(),
				this.beforeWrite, null);
		return new Publication(context, true, written.revision(), written.version(), diff, before, Map.of());
	}

	/** What publishing a document would change against the one in force. */
	public Publication diff(String context, byte[] document) throws Exception {
		return publish(context, document, Change.by(UNKNOWN_AUTHOR, null).dryRun(true), "put");
	}

	/** What changed from one revision's document to another's. */
	public Publication diff(String context, long from, long to) throws Exception {
		Map<String, String> before = ContextState.flat(bytes(revision(context, from)), this.maxBytes);
		Map<String, String> after = ContextState.flat(bytes(revision(context, to)), this.maxBytes);
		return new Publication(context, false, to, revision(context, to).version(), KeyDiff.between(before, after),
				before, after);
	}

	private static byte[] bytes(Revision revision) {
		return (revision.document() != null) ? revision.document().getBytes(StandardCharsets.UTF_8) : new byte[0];
	}

	/**
	 * The context's revisions, newest first. A write made outside the tool since the last revision is
	 * recorded first (a revision with an unknown author), or listed as one if this client may not write.
	 */
	public List<Revision> history(String context) throws Exception {
		ContextNames.check(context);
		ContextState state = this.store.read(context);
		List<Revision> revisions = new ArrayList<>();
		if (state.writtenOutside() && state.exists()) {
			Revision outside = this.store.outside(state);
			if (!this.store.recordOutside(state, outside)) {
				revisions.add(outside);
			}
			else {
				state = this.store.read(context);
			}
		}
		List<Long> kept = new ArrayList<>(state.kept());
		kept.sort(Comparator.reverseOrder());
		for (Long number : kept) {
			Revision revision = this.store.revision(context, number);
			if (revision != null) {
				revisions.add(revision);
			}
		}
		return revisions;
	}

	/**
	 * One revision of a context.
	 * @throws PublishException ({@code NOT_FOUND}) naming the revisions kept when it does not exist
	 */
	public Revision revision(String context, long revision) throws Exception {
		ContextNames.check(context);
		Revision found = this.store.revision(context, revision);
		if (found == null) {
			List<Long> kept = this.store.read(context).kept();
			throw new PublishException(PublishException.Reason.NOT_FOUND, "context '" + context + "' has no revision "
					+ revision + (kept.isEmpty() ? " (it has no history yet)"
							: " (revisions " + kept.get(0) + " to " + kept.get(kept.size() - 1) + " are kept)")
					+ "; list them with config history " + context);
		}
		return found;
	}

	/**
	 * Write each context's document to {@code DIR/CONTEXT.json}, as stored.
	 * @return the contexts exported
	 */
	public List<String> exportTo(Path dir) throws Exception {
		return new DirectorySync(this, this.store, this.maxBytes, this.beforeWrite).export(dir);
	}

	/**
	 * Publish the {@code CONTEXT.json} files of a directory whose keys differ from what is in force, each
	 * as a revision ({@code kind} import); every file is validated before any is written, and all of them are
	 * written in one transaction, so a refusal (a context that moved, a node's ACL) writes none.
	 * @return what was published (or, in a dry run, would be)
	 * @throws PublishException {@code INVALID} for a bad file, or an import too large for one transaction;
	 * {@code CONFLICT} naming a context that moved since it was read
	 */
	public List<Publication> importFrom(Path dir, Change change) throws Exception {
		return this.instrumentation.observe("import", null, change.dryRun(),
				() -> new DirectorySync(this, this.store, this.maxBytes, this.beforeWrite).importFrom(dir, change));
	}

}
