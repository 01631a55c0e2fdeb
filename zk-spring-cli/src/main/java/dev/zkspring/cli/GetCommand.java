package dev.zkspring.cli;

import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import dev.zkspring.publish.ConfigDocument;
import dev.zkspring.publish.PublishException;

/** {@code config get CONTEXT}: the document on stdout, its version on stderr. */
@Command(name = "get", mixinStandardHelpOptions = true,
		description = "Print a context's document (pretty-printed) on stdout and its node version on stderr.",
		footer = { "%nExample:%n  zk-spring config get orders > orders.json" })
final class GetCommand implements Callable<Integer> {

	@ParentCommand
	ConfigCommand config;

	@Parameters(index = "0", paramLabel = "CONTEXT", description = "The context, e.g. orders or application,prod.")
	String context;

	@Mixin
	ReadChecks read = new ReadChecks();

	@Override
	public Integer call() throws Exception {
		ConfigDocument document = this.config.withPublisher(this.read.checks, (publisher) -> publisher.get(this.context));
		if (!document.exists()) {
			throw new PublishException(PublishException.Reason.NOT_FOUND, "context '" + this.context + "' does not "
					+ "exist under " + this.config.cli.connection.root + ": publish it with config put");
		}
		if (this.read.json()) {
			java.util.Map<String, Object> body = new java.util.LinkedHashMap<>();
			body.put("context", this.context);
			body.put("version", document.version());
			// the text as stored, so every number keeps its exact digits
			body.put("document", new String(document.data(), java.nio.charset.StandardCharsets.UTF_8));
			ReadOutput.printJson(this.config.spec.commandLine().getOut(), body);
			return Exits.DONE;
		}
		this.config.spec.commandLine().getOut().println(Pretty.print(document.data()));
		this.config.spec.commandLine().getErr().println("context '" + this.context + "' version " + document.version());
		return Exits.DONE;
	}

}
