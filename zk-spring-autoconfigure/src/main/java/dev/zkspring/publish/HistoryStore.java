package dev.zkspring.publish;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.api.transaction.TransactionOp;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

import dev.zkspring.config.ConfigLayout;

/**
 * Reads a context's document and history, and writes a new revision: the document's setData (or create)
 * with the version read, the revision record, the head with the version read and the trimming of the
 * oldest records, in one multi-op transaction, so there is no revision without its document and no
 * document without its revision. A write made outside the tool since the last revision is recorded first,
 * in the same transaction, as a revision with an unknown author.
 * <p>
 * Over 300 lines because reading a context's state, preparing a revision (with one for an outside write)
 * and committing it in one transaction are one protocol over the same nodes and versions; the failed-
 * operation reporting of a commit belongs to it.
 */
final class HistoryStore {

	static final String OUTSIDE_MESSAGE = "written outside the tool";

	/** The kind of a revision that deletes the document node (its history stays). */
	static final String DELETE = "delete";

	private final CuratorFramework client;

	private final String root;

	private final long maxBytes;

	private final Clock clock;

	HistoryStore(CuratorFramework client, String root, long maxBytes) {
		this(client, root, maxBytes, Clock.systemUTC());
	}

	HistoryStore(CuratorFramework client, String root, long maxBytes, Clock clock) {
		this.client = client;
		this.root = root;
		this.maxBytes = maxBytes;
		this.clock = clock;
	}

	String documentNode(String context) {
		return ZKPaths.makePath(this.root, context);
	}

	ContextState read(String context) throws Exception {
		Stat stat = new Stat();
		byte[] data;
		try {
			data = this.client.getData().storingStatIn(stat).forPath(documentNode(context));
		}
		catch (KeeperException.NoNodeException ex) {
			data = new byte[0];
			stat.setVersion(-1);
		}
		String headNode = ConfigLayout.historyNode(this.root, context);
		Stat headStat = new Stat();
		Revision head;
		List<Long> kept = new ArrayList<>();
		try {
			head = HistoryCodec.read(headNode, this.client.getData().storingStatIn(headStat).forPath(headNode));
			for (String child : this.client.getChildren().forPath(headNode)) {
				kept.add(Long.parseLong(child));
			}
		}
		catch (KeeperException.NoNodeException ex) {
			head = null;
			headStat.setVersion(-1);
		}
		catch (NumberFormatException ex) {
			throw new IllegalStateException("The history node " + headNode + " has a child that is not a revision "
					+ "number: delete it with zkCli");
		}
		kept.sort(Comparator.naturalOrder());
		return new ContextState(context, (data != null) ? data : new byte[0], stat.getVersion(), head,
				headStat.getVersion(), kept);
	}

	@Nullable Revision revision(String context, long revision) throws Exception {
		String node = ConfigLayout.revisionNode(this.root, context, revision);
		try {
			return HistoryCodec.read(node, this.client.getData().forPath(node));
		}
		catch (KeeperException.NoNodeException ex) {
			return null;
		}
	}

	/** The revision recording a write made outside the tool, diffed against the last revision's document. */
	Revision outside(ContextState state) throws Exception {
		Revision previous = (state.head() != null) ? revision(state.context(), state.head().revision()) : null;
		byte[] previousData = (previous != null && previous.document() != null)
				? previous.document().getBytes(StandardCharsets.UTF_8) : null;
		KeyDiff keys = KeyDiff.between(ContextState.flat(previousData, this.maxBytes), state.flat(this.maxBytes));
		return new Revision(state.nextRevision(), state.version(), this.clock.instant(), ConfigPublisher.UNKNOWN_AUTHOR,
				OUTSIDE_MESSAGE, "outside", keys, state.text());
	}

	/**
	 * Write a document and its revision, or nothing.
	 * @return the revision written
	 * @throws PublishException ({@code CONFLICT}) when the document or the history moved since {@code state}
	 */
	Revision publish(ContextState state, byte[] document, KeyDiff diff, Change change, String kind,
			Runnable beforeWrite) throws Exception {
		return write(state, document, new String(document, StandardCharsets.UTF_8), diff, change, kind,
				(op) -> List.of(), beforeWrite, null);
	}

	/**
	 * Write a revision with other operations (a canary node's create, setData or delete), in one transaction.
	 * @param document the base document's new bytes; {@code null} keeps it (checked at the version read)
	 * @param recorded the document text the revision records
	 * @param conflict the message of a conflict; {@code null} for the document's
	 * @return the revision written
	 * @throws PublishException ({@code CONFLICT}) when anything moved since it was read
	 */
	Revision write(ContextState state, byte @Nullable [] document, @Nullable String recorded, KeyDiff diff, Change change,
			String kind, Ops extra, Runnable beforeWrite, @Nullable String conflict)
			throws Exception {
		Prepared prepared = prepare(state, document, recorded, diff, change, kind, extra, conflict);
		beforeWrite.run();
		commit(List.of(prepared));
		return prepared.published();
	}

	/**
	 * The operations of one revision's write, to be committed alone ({@link #write}) or with other contexts'
	 * in one transaction ({@link #commit}).
	 */
	Prepared prepare(ContextState state, byte @Nullable [] document, @Nullable String recorded, KeyDiff diff,
			Change change, String kind, Ops extra, @Nullable String conflict) throws Exception {
		ensureParents();
		List<Revision> records = new ArrayList<>();
		if (state.writtenOutside()) {
			records.add(outside(state));
		}
		long number = state.nextRevision() + records.size();
		boolean deletes = DELETE.equals(kind);
		int version = deletes ? -1 : (document == null) ? state.version() : state.exists() ? state.version() + 1 : 0;
		Revision published = new Revision(number, version, this.clock.instant(), change.author(), change.message(), kind,
				diff, recorded);
		records.add(published);
		TransactionOp op = this.client.transactionOp();
		List<CuratorOp> ops = new ArrayList<>();
		String node = documentNode(state.context());
		if (deletes) {
			ops.add(op.delete().withVersion(state.version()).forPath(node));
		}
		else if (document != null) {
			ops.add(state.exists() ? op.setData().withVersion(state.version()).forPath(node, document)
					: op.create().forPath(node, document));
		}
		else if (state.exists()) {
			ops.add(op.check().withVersion(state.version()).forPath(node));
		}
		ops.addAll(extra.apply(op));
		ops.addAll(history(op, state, records, change.keep()));
		long bytes = (document != null) ? document.length : 0;
		for (Revision record : records) {
			bytes += HistoryCodec.record(record).length;
		}
		return new Prepared(state, published, List.copyOf(ops), conflict, bytes + 256L * ops.size());
	}

	/**
	 * One revision's write, prepared.
	 * @param state the context as read
	 * @param published the revision it writes
	 * @param ops its operations
	 * @param conflict the message of a conflict; {@code null} for the document's
	 * @param bytes about how many bytes its operations take in a request
	 */
	record Prepared(ContextState state, Revision published, List<CuratorOp> ops, @Nullable String conflict,
			long bytes) {

	}

	/** Operations written in the same transaction as a revision. */
	@FunctionalInterface
	interface Ops {

		List<CuratorOp> apply(TransactionOp op) throws Exception;

	}

	/**
	 * Record a write made outside the tool, if the document is still at the version read.
	 * @return whether it was recorded (false: something moved, or this client may not write history)
	 */
	boolean recordOutside(ContextState state, Revision outside) {
		if (!state.exists()) {
			return false;
		}
		try {
			ensureParents();
			TransactionOp op = this.client.transactionOp();
			List<CuratorOp> ops = new ArrayList<>();
			ops.add(op.check().withVersion(state.version()).forPath(documentNode(state.context())));
			ops.addAll(history(op, state, List.of(outside), Integer.MAX_VALUE));
			this.client.transaction().forOperations(ops);
			return true;
		}
		catch (Exception ex) {
			return false;
		}
	}

	private List<CuratorOp> history(TransactionOp op, ContextState state, List<Revision> records, int keep)
			throws Exception {
		List<CuratorOp> ops = new ArrayList<>();
		String head = ConfigLayout.historyNode(this.root, state.context());
		byte[] headData = HistoryCodec.head(records.get(records.size() - 1));
		ops.add((state.headVersion() < 0) ? op.create().forPath(head, headData)
				: op.setData().withVersion(state.headVersion()).forPath(head, headData));
		List<Long> all = new ArrayList<>(state.kept());
		records.forEach((record) -> all.add(record.revision()));
		List<Long> trimmed = all.subList(0, Math.max(0, all.size() - keep));
		for (Revision record : records) {
			if (!trimmed.contains(record.revision())) {
				ops.add(op.create()
					.forPath(ConfigLayout.revisionNode(this.root, state.context(), record.revision()),
							HistoryCodec.record(record)));
			}
		}
		for (Long old : trimmed) {
			if (state.kept().contains(old)) {
				ops.add(op.delete().forPath(ConfigLayout.revisionNode(this.root, state.context(), old)));
			}
		}
		return ops;
	}

	/**
	 * Commit prepared writes in one transaction: all of them or none.
	 * @throws PublishException ({@code CONFLICT}) naming the context that moved since it was read
	 * @throws KeeperException any other refusal, naming the node that refused it
	 */
	void commit(List<Prepared> writes) throws Exception {
		List<CuratorOp> ops = new ArrayList<>();
		writes.forEach((write) -> ops.addAll(write.ops()));
		try {
			this.client.transaction().forOperations(ops);
		}
		catch (KeeperException.BadVersionException | KeeperException.NodeExistsException
				| KeeperException.NoNodeException ex) {
			Prepared first = writes.get(0);
			if (isOurs(first.state().context(), first.published())) {
				// the transaction was applied, then the connection dropped and Curator's retry met our own write
				return;
			}
			Prepared failed = writes.get(writeOf(writes, failedOp(ex)));
			ContextState state = failed.state();
			if (failed.conflict() != null) {
				throw new PublishException(PublishException.Reason.CONFLICT, failed.conflict());
			}
			throw new PublishException(PublishException.Reason.CONFLICT, "context '" + state.context()
					+ "' changed while publishing (it was at version " + state.version() + "): nothing was written; "
					+ "read it again (config get, config diff) and retry");
		}
		catch (KeeperException ex) {
			int failed = failedOp(ex);
			if (ex.getPath() == null && failed >= 0) {
				// a transaction's failure names no node: name the one that refused it (a NOAUTH, say)
				throw KeeperException.create(ex.code(), ops.get(failed).getTypeAndPath().getForPath());
			}
			throw ex;
		}
	}

	/** The index of the operation a failed transaction failed on; -1 when the results do not say. */
	private static int failedOp(KeeperException ex) {
		List<OpResult> results = ex.getResults();
		if (results != null) {
			for (int i = 0; i < results.size(); i++) {
				if (results.get(i) instanceof OpResult.ErrorResult error
						&& error.getErr() != KeeperException.Code.OK.intValue()
						&& error.getErr() != KeeperException.Code.RUNTIMEINCONSISTENCY.intValue()) {
					return i;
				}
			}
		}
		return -1;
	}

	/** The write an operation belongs to; the first when unknown. */
	private static int writeOf(List<Prepared> writes, int op) {
		int end = 0;
		for (int i = 0; i < writes.size(); i++) {
			end += writes.get(i).ops().size();
			if (op < end) {
				return i;
			}
		}
		return 0;
	}

	private boolean isOurs(String context, Revision published) throws Exception {
		String node = ConfigLayout.revisionNode(this.root, context, published.revision());
		try {
			return Arrays.equals(this.client.getData().forPath(node), HistoryCodec.record(published));
		}
		catch (KeeperException.NoNodeException ex) {
			return false;
		}
	}

	private void ensureParents() throws Exception {
		ensure(ZKPaths.makePath(this.root, ""), ZKPaths.makePath(ConfigLayout.metaRoot(this.root), "history"));
	}

	void ensure(String... parents) throws Exception {
		for (String parent : parents) {
			if (this.client.checkExists().forPath(parent) == null) {
				try {
					this.client.create().creatingParentsIfNeeded().forPath(parent);
				}
				catch (KeeperException.NodeExistsException ex) {
					// created meanwhile by another publisher or an instance
				}
			}
		}
	}

}
