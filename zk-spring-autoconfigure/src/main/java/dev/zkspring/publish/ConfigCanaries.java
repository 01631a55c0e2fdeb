package dev.zkspring.publish;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

import dev.zkspring.config.ConfigCanary;
import dev.zkspring.config.ConfigDocuments;
import dev.zkspring.config.ConfigLayout;
import dev.zkspring.fleet.FleetCanary;

/**
 * Canary releases from any program with a {@link CuratorFramework}: start one (a candidate document for a
 * fixed set of instance ids), read what the members report, promote it (checked against their reports) or
 * abort it. Each write is one transaction with a history revision ({@code canary}, {@code promote},
 * {@code abort}) and a compare-and-set on the canary node ({@link ConfigLayout#canaryNode}).
 */
public final class ConfigCanaries {

	private final CuratorFramework client;

	private final String root;

	private final long maxBytes;

	private final ConfigPublisher publisher;

	private final HistoryStore store;

	/** Runs between reading and writing: the seam race tests force interleavings with. */
	volatile Runnable beforeWrite = () -> {
	};

	private volatile PublishInstrumentation instrumentation = PublishInstrumentation.NONE;

	/** Canaries of the documents under a config root, with the instances' default size limit. */
	public ConfigCanaries(CuratorFramework client, String root) {
		this(client, root, ConfigDocuments.DEFAULT_MAX_BYTES);
	}

	/** Canaries of the documents under a config root, with the instances' {@code zk.config.max-document-size}. */
	public ConfigCanaries(CuratorFramework client, String root, long maxDocumentBytes) {
		this.client = client;
		this.root = ZKPaths.makePath(root, "");
		this.maxBytes = maxDocumentBytes;
		this.publisher = new ConfigPublisher(client, this.root, maxDocumentBytes);
		this.store = new HistoryStore(client, this.root, maxDocumentBytes);
	}

	/** Have each write (canary, promote, abort) seen by the application's observability, as a publisher's. */
	public void setInstrumentation(PublishInstrumentation instrumentation) {
		this.instrumentation = instrumentation;
	}

	/** Check a candidate as {@link ConfigPublisher#validate} does; returns its flat keys. */
	public Map<String, String> validate(String context, byte[] document) {
		return this.publisher.validate(context, document);
	}

	/** The canary running for a context; {@code null} when none runs. */
	public @Nullable ConfigCanary canary(String context) throws Exception {
		Stat stat = new Stat();
		byte[] data = read(context, stat);
		return (data != null) ? parse(context, data) : null;
	}

	/**
	 * Start a canary: the candidate for exactly these instance ids, with a revision of kind {@code canary}.
	 * @param replace whether a canary already running for the context may be replaced
	 * @return the revision written (base version: the base document's, which stays); in a dry run, nothing written
	 * @throws PublishException {@code INVALID} for a bad candidate or an empty set, {@code CONFLICT} when a canary
	 * runs and {@code replace} is false, or when the canary node or the base moved while writing
	 */
	public Publication start(String context, byte[] candidate, List<String> instances, Change change,
			boolean replace) throws Exception {
		return this.instrumentation.observe("canary", context, change.dryRun(),
				() -> startCanary(context, candidate, instances, change, replace));
	}

	private Publication startCanary(String context, byte[] candidate, List<String> instances, Change change,
			boolean replace) throws Exception {
		Map<String, String> after = this.publisher.validate(context, candidate);
		List<String> ids = new ArrayList<>(new LinkedHashSet<>(instances));
		if (ids.isEmpty() || ids.stream().anyMatch(String::isBlank)) {
			throw new PublishException(PublishException.Reason.INVALID, "context '" + context
					+ "': the canary names no instance: give --instances ID[,ID...] or --count N; nothing was written");
		}
		ContextState state = this.store.read(context);
		Stat stat = new Stat();
		byte[] running = read(context, stat);
		if (running != null && !replace) {
			ConfigCanary current = parse(context, running);
			throw new PublishException(PublishException.Reason.CONFLICT, "context '" + context + "' already runs canary "
					+ "revision " + current.revision() + " on " + String.join(",", current.instances())
					+ ": replace it with --replace, or end it with config promote / config abort; nothing was written");
		}
		Map<String, String> before = state.flat(this.maxBytes);
		KeyDiff diff = KeyDiff.between(before, after);
		if (change.dryRun()) {
			return new Publication(context, false, -1, state.version(), diff, before, after);
		}
		long revision = state.nextRevision() + (state.writtenOutside() ? 1 : 0);
		String text = new String(candidate, StandardCharsets.UTF_8);
		byte[] node = new ConfigCanary(revision, ids, state.version(), System.currentTimeMillis(), change.author(),
				change.message(), text).toJson();
		String path = ConfigLayout.canaryNode(this.root, context);
		this.store.ensure(ConfigLayout.canaryRoot(this.root));
		Revision written = this.store.write(state, null, text, diff, change, "canary",
				(op) -> List.of((running == null) ? op.create().forPath(path, node)
						: op.setData().withVersion(stat.getVersion()).forPath(path, node)),
				this.beforeWrite, moved(context));
		return new Publication(context, true, written.revision(), state.version(), diff, before, after);
	}

	/** The ids of an application's live instances, the set a canary by count chooses from. */
	public List<String> liveInstances(String fleetPath) throws Exception {
		return FleetCanary.liveInstances(this.client, fleetPath);
	}

	/** Every live instance's report on the context's canary; empty when none runs. */
	public List<FleetCanary> status(String fleetPath, String context) throws Exception {
		ContextNames.check(context);
		return FleetCanary.read(this.client, fleetPath, ZKPaths.makePath(this.root, context));
	}

	/**
	 * Make the candidate the base document and end the canary, in one transaction with a revision of kind
	 * {@code promote}; refused unless every live member reports {@code CURRENT}, or {@code force} (then the
	 * revision's message records the promotion as forced and over which members), and refused when the base
	 * document moved since the canary started.
	 * @throws PublishException {@code INVALID} naming each member not CURRENT (and the key it refused),
	 * {@code NOT_FOUND} when no canary runs, {@code CONFLICT} when the base or the canary moved
	 */
	public Publication promote(String context, String fleetPath, Change change, boolean force) throws Exception {
		return promote(context, fleetPath, change, force, false, (keys) -> {
		});
	}

	/**
	 * Make the candidate the base document and end the canary, as {@link #promote(String, String, Change, boolean)}.
	 * @param overwriteBase whether the candidate may replace a base document that moved since the canary started
	 * (a hotfix put meanwhile); the revision's message records it. Without it such a promote is a {@code CONFLICT}
	 * naming both node versions.
	 * @param check a further check of the candidate's flat keys before anything is written (the tool's
	 * {@code --against}), throwing a {@link PublishException} to refuse it
	 */
	public Publication promote(String context, String fleetPath, Change change, boolean force, boolean overwriteBase,
			Consumer<Map<String, String>> check) throws Exception {
		return this.instrumentation.observe("promote", context, change.dryRun(),
				() -> promoteCanary(context, fleetPath, change, force, overwriteBase, check));
	}

	private Publication promoteCanary(String context, String fleetPath, Change change, boolean force,
			boolean overwriteBase, Consumer<Map<String, String>> check) throws Exception {
		Stat stat = new Stat();
		ConfigCanary canary = running(context, stat);
		byte[] candidate = canary.document().getBytes(StandardCharsets.UTF_8);
		Map<String, String> after = this.publisher.validate(context, candidate);
		// the candidate checked is the one written: the canary node is deleted at the version read
		check.accept(after);
		ContextState state = this.store.read(context);
		boolean baseMoved = canary.baseVersion() != state.version();
		if (baseMoved && !overwriteBase) {
			throw new PublishException(PublishException.Reason.CONFLICT, "context '" + context + "': the base document "
					+ "moved since canary revision " + canary.revision() + " started (it was at node version "
					+ canary.baseVersion() + " then, it is at version " + state.version() + " now): promoting would "
					+ "replace that change; start the canary again from the new base (config canary --replace), or "
					+ "promote with --overwrite-base; nothing was written");
		}
		List<String> blocking = blocking(context, fleetPath, canary);
		if (!blocking.isEmpty() && !force) {
			throw new PublishException(PublishException.Reason.INVALID, "context '" + context + "': promote refused, "
					+ "not every member runs canary revision " + canary.revision() + ": " + String.join("; ", blocking)
					+ "; wait, fix the candidate and start it again, abort it, or promote with --force; nothing was written");
		}
		Map<String, String> before = state.flat(this.maxBytes);
		KeyDiff diff = KeyDiff.between(before, after);
		String message = (change.message() != null) ? change.message() : "promote canary revision " + canary.revision();
		if (!blocking.isEmpty()) {
			message = message + " [forced: " + String.join("; ", blocking) + "]";
		}
		if (baseMoved) {
			message = message + " [over base version " + state.version() + ", the canary started from "
					+ canary.baseVersion() + "]";
		}
		if (change.dryRun()) {
			return new Publication(context, false, -1, state.version(), diff, before, after);
		}
		String path = ConfigLayout.canaryNode(this.root, context);
		Revision written = this.store.write(state, candidate, canary.document(), diff, change.withMessage(message),
				"promote", (op) -> List.of(op.delete().withVersion(stat.getVersion()).forPath(path)), this.beforeWrite,
				moved(context));
		return new Publication(context, true, written.revision(), written.version(), diff, before, after);
	}

	/** Each live member not CURRENT, with its status and reason; or that no member is live. */
	private List<String> blocking(String context, String fleetPath, ConfigCanary canary) throws Exception {
		List<String> blocking = new ArrayList<>();
		boolean anyCurrent = false;
		for (FleetCanary member : status(fleetPath, context)) {
			if (!member.member()) {
				continue;
			}
			if (FleetCanary.CURRENT.equals(member.status())) {
				anyCurrent = true;
			}
			else {
				blocking.add(member.instanceId() + " " + member.status()
						+ ((member.reason() != null) ? " (" + member.reason() + ")" : ""));
			}
		}
		if (!anyCurrent && blocking.isEmpty()) {
			blocking.add("no member of " + String.join(",", canary.instances()) + " is live");
		}
		return blocking;
	}

	/**
	 * End the canary: its members return to the base document. One transaction with a revision of kind
	 * {@code abort} (recording the base document).
	 * @return the revision written
	 */
	public Revision abort(String context, Change change) throws Exception {
		return this.instrumentation.observe("abort", context, false, () -> abortCanary(context, change));
	}

	private Revision abortCanary(String context, Change change) throws Exception {
		Stat stat = new Stat();
		ConfigCanary canary = running(context, stat);
		ContextState state = this.store.read(context);
		String path = ConfigLayout.canaryNode(this.root, context);
		Change described = (change.message() != null) ? change
				: change.withMessage("abort canary revision " + canary.revision());
		return this.store.write(state, null, state.text(), new KeyDiff(List.of(), List.of(), List.of()), described,
				"abort", (op) -> List.of(op.delete().withVersion(stat.getVersion()).forPath(path)), this.beforeWrite,
				moved(context));
	}

	private ConfigCanary running(String context, Stat stat) throws Exception {
		byte[] data = read(context, stat);
		if (data == null) {
			throw new PublishException(PublishException.Reason.NOT_FOUND, "context '" + context + "' runs no canary ("
					+ ConfigLayout.canaryNode(this.root, context) + " does not exist); start one with config canary");
		}
		return parse(context, data);
	}

	private byte @Nullable [] read(String context, Stat stat) throws Exception {
		ContextNames.check(context);
		try {
			byte[] data = this.client.getData().storingStatIn(stat).forPath(ConfigLayout.canaryNode(this.root, context));
			return (data != null) ? data : new byte[0];
		}
		catch (KeeperException.NoNodeException ex) {
			return null;
		}
	}

	private ConfigCanary parse(String context, byte[] data) {
		try {
			return ConfigCanary.parse(data);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalStateException("The canary node " + ConfigLayout.canaryNode(this.root, context) + " is not "
					+ "a canary: " + ex.getMessage() + "; delete it with zkCli");
		}
	}

	private String moved(String context) {
		return "context '" + context + "' or its canary node " + ConfigLayout.canaryNode(this.root, context)
				+ " changed while writing: nothing was written; check config canary-status and retry";
	}

}
