package dev.zkspring.cli;

import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import dev.zkspring.config.ConfigCanary;
import dev.zkspring.publish.Revision;

/** {@code config abort CONTEXT}: end the canary; its members return to the base document. */
@Command(name = "abort", mixinStandardHelpOptions = true,
		description = "End the context's canary (its node deleted at the version read, with a history revision of kind "
				+ "abort); its members return to the base document.",
		footer = { "%nExample:%n  zk-spring config abort orders -m \"limit 9 refused on node-2\"" })
final class AbortCommand implements Callable<Integer> {

	@ParentCommand
	ConfigCommand config;

	@Parameters(index = "0", paramLabel = "CONTEXT", description = "The context.")
	String context;

	@Mixin
	WriteOptions write = new WriteOptions();

	@Mixin
	CheckOptions checks = new CheckOptions();

	@Override
	public Integer call() throws Exception {
		if (this.write.dryRun) {
			ConfigCanary canary = this.config.withCanaries(this.checks, (canaries) -> canaries.canary(this.context));
			this.config.spec.commandLine().getErr().println((canary == null) ? "context '" + this.context
					+ "' runs no canary" : "dry run: would abort canary revision " + canary.revision() + " on "
							+ String.join(",", canary.instances()));
			return Exits.DONE;
		}
		Revision revision = this.config.withCanaries(this.checks,
				(canaries) -> canaries.abort(this.context, this.write.change()));
		this.config.spec.commandLine().getErr().println("aborted the canary of context '" + this.context + "': revision "
				+ revision.revision() + "; its members return to the base document");
		return Exits.DONE;
	}

}
