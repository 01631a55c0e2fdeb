package dev.zkspring.cli;

import java.util.concurrent.Callable;

import org.jspecify.annotations.Nullable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import dev.zkspring.publish.Publication;

/** {@code config diff CONTEXT FILE} or {@code config diff CONTEXT --from REV --to REV}. */
@Command(name = "diff", mixinStandardHelpOptions = true,
		description = { "Key-level diff of a file against the document in force, or between two revisions.",
				"Lines: + added, - removed, ~ changed; values only with --show-values." },
		footer = { "%nExamples:%n  zk-spring config diff orders orders.json%n  zk-spring config diff orders --from 3 --to 5" })
final class DiffCommand implements Callable<Integer> {

	@ParentCommand
	ConfigCommand config;

	@Parameters(index = "0", paramLabel = "CONTEXT", description = "The context.")
	String context;

	@Parameters(index = "1", arity = "0..1", paramLabel = "FILE", description = "The JSON document; - reads stdin.")
	@Nullable String file;

	@Option(names = "--from", paramLabel = "REV", description = "The older revision.")
	@Nullable Long from;

	@Option(names = "--to", paramLabel = "REV", description = "The newer revision.")
	@Nullable Long to;

	@Option(names = "--show-values", description = "Show values (they may be secrets).")
	boolean showValues;

	@Mixin
	CheckOptions checks = new CheckOptions();

	@Mixin
	ReadOutput output = new ReadOutput();

	@Override
	public Integer call() throws Exception {
		boolean revisions = this.from != null || this.to != null;
		if (revisions == (this.file != null) || (revisions && (this.from == null || this.to == null))) {
			throw new IllegalArgumentException("config diff takes either FILE or both --from REV and --to REV");
		}
		byte[] document = (this.file != null) ? this.config.read(this.file) : null;
		Publication diff = this.config.withPublisher(this.checks, (publisher) -> {
			if (document == null) {
				return publisher.diff(this.context, this.from, this.to);
			}
			this.config.checkAgainst(this.checks, this.context, publisher.validate(this.context, document));
			return publisher.diff(this.context, document);
		});
		if (this.output.json()) {
			java.util.Map<String, Object> body = new java.util.LinkedHashMap<>();
			body.put("context", this.context);
			body.putAll(Reports.keys(diff, this.showValues));
			ReadOutput.printJson(this.config.spec.commandLine().getOut(), body);
			return Exits.DONE;
		}
		Reports.diff(this.config.spec.commandLine().getOut(), diff, this.showValues);
		this.config.spec.commandLine().getErr().println(diff.diff().size() + " keys differ");
		return Exits.DONE;
	}

}
