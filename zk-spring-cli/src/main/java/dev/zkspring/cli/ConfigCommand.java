package dev.zkspring.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.curator.framework.CuratorFramework;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

import dev.zkspring.publish.ConfigCanaries;
import dev.zkspring.publish.ConfigMetadata;
import dev.zkspring.publish.ConfigPublisher;
import dev.zkspring.publish.MetadataFinding;
import dev.zkspring.publish.PublishException;

/** {@code zk-spring config ...}: the commands on context documents, and what they share. */
@Command(name = "config", mixinStandardHelpOptions = true,
		description = "Read, publish, compare and roll back context documents (one JSON object per context znode).",
		subcommands = { GetCommand.class, PutCommand.class, DiffCommand.class, HistoryCommand.class,
				RollbackCommand.class, ExportCommand.class, ImportCommand.class, EncryptCommand.class,
				CanaryCommand.class, CanaryStatusCommand.class, PromoteCommand.class, AbortCommand.class,
				ValidateCommand.class, ApplyCommand.class },
		footerHeading = "%nExit status:%n", footer = Exits.HELP)
final class ConfigCommand {

	@ParentCommand
	ZkSpringCli cli;

	@Spec
	CommandSpec spec;

	/** The applications' metadata, read once per command (an import checks every context against one jar). */
	private final Map<Path, ConfigMetadata> metadata = new HashMap<>();

	/** Work with a connected publisher; the client is closed afterwards. */
	<T> T withPublisher(CheckOptions checks, Action<T> action) throws Exception {
		return withBoth(checks, (publisher, canaries) -> action.run(publisher));
	}

	/** Work with connected canaries; the client is closed afterwards. */
	<T> T withCanaries(CheckOptions checks, CanaryAction<T> action) throws Exception {
		return withBoth(checks, (publisher, canaries) -> action.run(canaries));
	}

	/** Work with a publisher and canaries on one connection (one session per command); closed afterwards. */
	<T> T withBoth(CheckOptions checks, BothAction<T> action) throws Exception {
		try (CuratorFramework client = this.cli.connection.connect(this.cli.env)) {
			String root = this.cli.connection.root;
			return action.run(new ConfigPublisher(client, root, checks.maxDocumentBytes()),
					new ConfigCanaries(client, root, checks.maxDocumentBytes()));
		}
	}

	/** A document from a file, or from stdin for {@code -}. */
	byte[] read(String file) {
		if ("-".equals(file)) {
			try {
				return this.cli.in.readAllBytes();
			}
			catch (IOException ex) {
				throw new PublishException(PublishException.Reason.NOT_FOUND, "cannot read the document from stdin");
			}
		}
		try {
			return Files.readAllBytes(Path.of(file));
		}
		catch (IOException ex) {
			throw new PublishException(PublishException.Reason.NOT_FOUND, "file " + file + " cannot be read ("
					+ ex.getClass().getSimpleName() + "): name an existing JSON file, or - for stdin");
		}
	}

	/**
	 * Check a flat document against the application's metadata: warnings go to stderr; errors (or, with
	 * --strict, warnings) refuse the document; a key the check cannot judge refuses it too, with its own status,
	 * so a document is never passed as checked when it was not.
	 */
	void checkAgainst(CheckOptions checks, String context, Map<String, String> document) {
		if (checks.against == null) {
			return;
		}
		List<MetadataFinding> findings = findings(checks, context, document);
		MetadataFinding refusing = null;
		MetadataFinding unchecked = null;
		for (MetadataFinding finding : findings) {
			boolean refuses = refuses(checks, finding);
			if (refuses && refusing == null) {
				refusing = finding;
			}
			if (finding.unchecked() && unchecked == null) {
				unchecked = finding;
			}
			this.spec.commandLine().getErr().println(label(checks, finding) + "context '" + context + "': "
					+ finding.message());
		}
		if (refusing != null) {
			throw new PublishException(PublishException.Reason.INVALID, "context '" + context + "': "
					+ refusing.message() + (refusing.error() ? "" : " (--strict)") + "; nothing was written");
		}
		if (unchecked != null) {
			throw new Exits.Unchecked("context '" + context + "': --against " + checks.against + " cannot check "
					+ findings.stream().filter(MetadataFinding::unchecked).count() + " key(s), the first '"
					+ unchecked.key() + "' (see above); nothing was written");
		}
	}

	/**
	 * What the checks find in a flat document: against the application's metadata (with --against), and the
	 * instances' rules for job settings ({@link JobChecks}: always when {@code jobs}, else with --against), in key
	 * order.
	 */
	List<MetadataFinding> findings(CheckOptions checks, String context, Map<String, String> document, boolean jobs) {
		List<MetadataFinding> findings = new ArrayList<>();
		if (checks.against != null) {
			findings.addAll(this.metadata.computeIfAbsent(checks.against, ConfigMetadata::load)
				.check(Ciphertexts.seeThrough(document, this.cli.env, (note) -> this.spec.commandLine().getErr()
					.println("note: context '" + context + "': " + note))));
		}
		if (jobs || checks.against != null) {
			findings.addAll(JobChecks.check(document));
		}
		findings.sort(Comparator.comparing(MetadataFinding::key));
		return findings;
	}

	private List<MetadataFinding> findings(CheckOptions checks, String context, Map<String, String> document) {
		return findings(checks, context, document, false);
	}

	static boolean refuses(CheckOptions checks, MetadataFinding finding) {
		return finding.error() || (checks.strict && !finding.unchecked());
	}

	static String label(CheckOptions checks, MetadataFinding finding) {
		return refuses(checks, finding) ? "error: " : finding.unchecked() ? "unchecked: " : "warning: ";
	}

	@FunctionalInterface
	interface BothAction<T> {

		T run(ConfigPublisher publisher, ConfigCanaries canaries) throws Exception;

	}

	@FunctionalInterface
	interface CanaryAction<T> {

		T run(ConfigCanaries canaries) throws Exception;

	}

	@FunctionalInterface
	interface Action<T> {

		T run(ConfigPublisher publisher) throws Exception;

	}

}
