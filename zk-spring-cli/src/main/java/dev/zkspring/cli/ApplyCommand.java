package dev.zkspring.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import dev.zkspring.config.ConfigCanary;
import dev.zkspring.publish.Change;
import dev.zkspring.publish.ConfigCanaries;
import dev.zkspring.publish.ConfigPublisher;
import dev.zkspring.publish.Publication;
import dev.zkspring.publish.PublishException;

/**
 * {@code config apply DIR}: a directory as the source of truth. Every file is checked first; then a plan is read
 * (create, change with key-level diffs, unchanged, and with {@code --prune} delete); then each context that
 * differs is written on its own, as {@code put} writes one (compare-and-set against the version the plan read, a
 * revision in its history). A context that moved since the plan stops the run there (exit 3): what was written
 * before it stays, and a re-run reads a new plan and completes the rest, writing nothing already in force.
 */
@Command(name = "apply", mixinStandardHelpOptions = true,
		description = { "Make ZooKeeper hold what DIR holds: check every DIR/CONTEXT.json (as config validate), show the "
				+ "plan (create, change with key-level diffs, unchanged, and with --prune delete), then write each "
				+ "context that differs as config put does: compare-and-set against the version the plan read, and a "
				+ "revision in its history (a deletion too: its history stays).",
				"A context changed by someone else since the plan was read stops the run with exit status 3: the "
						+ "contexts written before it stay written, nothing after it is written; run apply again. A "
						+ "context with a running canary is refused (exit 3, naming it, nothing written) unless --force. "
						+ "Re-running an applied directory writes nothing." },
		footer = { "%nExample:%n  zk-spring config apply ./config-repo --prune --message \"release 42\" "
				+ "--against target/orders.jar" })
final class ApplyCommand implements Callable<Integer> {

	/** Runs between reading the plan and the first write: the seam tests force a concurrent change with. */
	static volatile Runnable afterPlan = () -> {
	};

	@ParentCommand
	ConfigCommand config;

	@Parameters(index = "0", paramLabel = "DIR", description = "The directory of CONTEXT.json files.")
	Path dir;

	@Option(names = "--prune", description = "Delete the contexts under --root that DIR has no file for (their "
			+ "history stays).")
	boolean prune;

	@Option(names = "--force", description = "Write contexts on which a canary runs (its members keep the candidate; "
			+ "the others apply the new document).")
	boolean force;

	@Mixin
	WriteOptions write = new WriteOptions();

	@Mixin
	CheckOptions checks = new CheckOptions();

	@Mixin
	ReadOutput output = new ReadOutput();

	@Override
	public Integer call() throws Exception {
		Map<String, Path> files = ContextFiles.list(this.dir);
		long maxBytes = this.checks.maxDocumentBytes();
		Map<String, byte[]> documents = new java.util.TreeMap<>();
		for (Map.Entry<String, Path> file : files.entrySet()) {
			byte[] document = ContextFiles.read(file.getValue());
			try {
				this.config.checkAgainst(this.checks, file.getKey(), ConfigPublisher.validate(file.getKey(), document,
						maxBytes));
			}
			catch (PublishException ex) {
				throw new PublishException(ex.reason(), "file " + file.getValue().getFileName() + ": " + ex.getMessage()
						+ ((ex.getMessage().endsWith("nothing was written")) ? "" : "; nothing was written"));
			}
			documents.put(file.getKey(), document);
		}
		Change change = this.write.change();
		return this.config.withBoth(this.checks, (publisher, canaries) -> {
			ApplyPlan plan = plan(publisher, canaries, documents);
			PrintWriter out = this.config.spec.commandLine().getOut();
			PrintWriter err = this.config.spec.commandLine().getErr();
			if (this.output.json()) {
				plan.printJson(out, this.write.dryRun);
			}
			else {
				plan.printTable(out, this.write.showValues);
			}
			List<String> canaried = plan.writes().stream().filter((step) -> step.canary() != null)
				.map(ApplyPlan.Step::context).toList();
			if (!canaried.isEmpty() && !this.force) {
				throw new PublishException(PublishException.Reason.CONFLICT, "a canary runs on context(s) "
						+ String.join(", ", canaried) + ": end it (config promote / config abort) or apply with --force; "
						+ "nothing was written");
			}
			if (this.write.dryRun) {
				err.println("dry run: " + plan.summary() + "; nothing written");
				return Exits.DONE;
			}
			afterPlan.run();
			List<String> written = new ArrayList<>();
			for (ApplyPlan.Step step : plan.writes()) {
				Change expecting = change.expecting(step.version());
				Publication publication;
				try {
					publication = (step.action() == ApplyPlan.Action.delete) ? publisher.delete(step.context(), expecting)
							: publisher.put(step.context(), step.document(), expecting);
				}
				catch (PublishException ex) {
					if (ex.reason() != PublishException.Reason.CONFLICT) {
						throw ex;
					}
					throw new PublishException(PublishException.Reason.CONFLICT, "context '" + step.context()
							+ "' changed since the plan read it at node version " + step.version() + ": it and the "
							+ (plan.writes().size() - written.size() - 1) + " context(s) after it were not written"
							+ (written.isEmpty() ? "" : " (written before it: " + String.join(", ", written) + ")")
							+ "; run config apply again to read a new plan");
				}
				written.add(step.context());
				err.println(step.action() + " context '" + step.context() + "'"
						+ (publication.written() ? " revision " + publication.revision() + " (node version "
								+ publication.version() + ")" : ": already in force, nothing written"));
			}
			err.println(written.size() + " context(s) written; " + plan.count(ApplyPlan.Action.unchanged)
					+ " unchanged");
			return Exits.DONE;
		});
	}

	private ApplyPlan plan(ConfigPublisher publisher, ConfigCanaries canaries, Map<String, byte[]> documents)
			throws Exception {
		ApplyPlan plan = new ApplyPlan();
		Set<String> named = documents.keySet();
		List<String> names = new ArrayList<>(named);
		if (this.prune) {
			publisher.contexts().stream().filter((context) -> !named.contains(context)).forEach(names::add);
			names.sort(null);
		}
		for (String context : names) {
			byte[] document = documents.get(context);
			Publication read = (document != null) ? publisher.diff(context, document)
					: publisher.delete(context, Change.by(ConfigPublisher.UNKNOWN_AUTHOR, null).dryRun(true));
			ApplyPlan.Action action = (document == null) ? ApplyPlan.Action.delete
					: (read.version() < 0) ? ApplyPlan.Action.create
							: read.diff().isEmpty() ? ApplyPlan.Action.unchanged : ApplyPlan.Action.change;
			if (action == ApplyPlan.Action.delete && read.version() < 0) {
				continue;
			}
			ConfigCanary canary = (action != ApplyPlan.Action.unchanged) ? canaries.canary(context) : null;
			plan.steps.add(new ApplyPlan.Step(context, action, read.diff(), document, read,
					(canary != null) ? canary.revision() : null));
		}
		return plan;
	}

}
