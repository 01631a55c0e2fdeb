package dev.zkspring.cli;

import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import dev.zkspring.publish.Revision;

/** {@code config history CONTEXT}: revisions, newest first. */
@Command(name = "history", mixinStandardHelpOptions = true,
		description = { "List a context's revisions, newest first: revision, node version, time, author, message, keys "
				+ "changed.", "A write made outside the tool is recorded as a revision by author 'unknown'." },
		footer = { "%nExample:%n  zk-spring config history orders" })
final class HistoryCommand implements Callable<Integer> {

	@ParentCommand
	ConfigCommand config;

	@Parameters(index = "0", paramLabel = "CONTEXT", description = "The context.")
	String context;

	@Mixin
	ReadChecks read = new ReadChecks();

	@Override
	public Integer call() throws Exception {
		List<Revision> revisions = this.config.withPublisher(this.read.checks, (publisher) -> publisher.history(this.context));
		if (this.read.json()) {
			java.util.Map<String, Object> body = new java.util.LinkedHashMap<>();
			body.put("context", this.context);
			body.put("revisions", revisions.stream().map(Reports::revision).toList());
			ReadOutput.printJson(this.config.spec.commandLine().getOut(), body);
			return Exits.DONE;
		}
		Reports.history(this.config.spec.commandLine().getOut(), revisions);
		return Exits.DONE;
	}

}
