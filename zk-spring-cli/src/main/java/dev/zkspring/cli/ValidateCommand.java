package dev.zkspring.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import org.jspecify.annotations.Nullable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import dev.zkspring.config.ConfigDocuments;
import dev.zkspring.publish.ConfigPublisher;
import dev.zkspring.publish.MetadataFinding;
import dev.zkspring.publish.PublishException;

/** {@code config validate DIR}: a directory of context documents checked as {@code put} checks one, with no ZooKeeper. */
@Command(name = "validate", mixinStandardHelpOptions = true,
		description = { "Check every DIR/CONTEXT.json (CONTEXT,PROFILE.json for a profile context) as config put checks "
				+ "one, without connecting to ZooKeeper: for a pull request's CI.",
				"The document rules of the instances, the settings of zk.quartz.jobs.* (cron, interval, shards, "
						+ "shard-parameters), and with --against the keys and types the application declares. One line "
						+ "per finding on stdout, FILE:KEY: error|warning|unchecked: reason (FILE: error: reason for a "
						+ "document that is not valid as a whole); exit 1 when any finding is an error." },
		footer = { "%nExample:%n  zk-spring config validate ./config-repo --against target/orders.jar" })
final class ValidateCommand implements Callable<Integer> {

	@ParentCommand
	ConfigCommand config;

	@Parameters(index = "0", paramLabel = "DIR", description = "The directory of CONTEXT.json files.")
	Path dir;

	@Mixin
	ReadChecks read = new ReadChecks();

	@Override
	public Integer call() throws Exception {
		Map<String, Path> files = ContextFiles.list(this.dir);
		PrintWriter out = this.config.spec.commandLine().getOut();
		List<Map<String, Object>> found = new ArrayList<>();
		int errors = 0;
		int warnings = 0;
		int unchecked = 0;
		long maxBytes = this.read.checks.maxDocumentBytes();
		for (Map.Entry<String, Path> file : files.entrySet()) {
			String name = file.getValue().getFileName().toString();
			byte[] document = ContextFiles.read(file.getValue());
			Map<String, String> flat;
			try {
				flat = ConfigPublisher.validate(file.getKey(), document, maxBytes);
			}
			catch (PublishException ex) {
				String key = keyAtFault(document, maxBytes);
				line(out, found, name, key, "error", ex.getMessage());
				errors++;
				continue;
			}
			for (MetadataFinding finding : this.config.findings(this.read.checks, file.getKey(), flat, true)) {
				String label = ConfigCommand.label(this.read.checks, finding);
				line(out, found, name, finding.key(), label.substring(0, label.indexOf(':')), finding.message());
				if (ConfigCommand.refuses(this.read.checks, finding)) {
					errors++;
				}
				else if (finding.unchecked()) {
					unchecked++;
				}
				else {
					warnings++;
				}
			}
		}
		if (this.read.json()) {
			Map<String, Object> body = new LinkedHashMap<>();
			body.put("files", files.size());
			body.put("findings", found);
			ReadOutput.printJson(out, body);
		}
		this.config.spec.commandLine().getErr().println(files.size() + " context file(s) in " + this.dir + " checked"
				+ ((this.read.checks.against != null) ? " against " + this.read.checks.against : "") + ": " + errors
				+ " error(s), " + warnings + " warning(s), " + unchecked + " key(s) not checkable");
		return (errors > 0) ? Exits.REFUSED : (unchecked > 0) ? Exits.UNCHECKED : Exits.DONE;
	}

	/** One finding: a line FILE[:KEY]: SEVERITY: message, or with --output json an entry of the same fields. */
	private void line(PrintWriter out, List<Map<String, Object>> found, String file, @Nullable String key,
			String severity, String message) {
		if (!this.read.json()) {
			out.println(file + ((key != null) ? ":" + key : "") + ": " + severity + ": " + message);
			return;
		}
		Map<String, Object> entry = new LinkedHashMap<>();
		entry.put("file", file);
		entry.put("key", key);
		entry.put("severity", severity);
		entry.put("message", message);
		found.add(entry);
	}

	/** The key a document's own fault is at, when it is one key's. */
	private static @Nullable String keyAtFault(byte[] document, long maxBytes) {
		try {
			ConfigDocuments.validate(document, maxBytes);
			return null;
		}
		catch (ConfigDocuments.InvalidDocumentException ex) {
			return ex.key();
		}
	}

}
