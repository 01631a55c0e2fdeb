package dev.zkspring.cli;

import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import dev.zkspring.publish.Publication;

/** {@code config promote CONTEXT}: the candidate becomes the base document and the canary ends, together. */
@Command(name = "promote", mixinStandardHelpOptions = true,
		description = { "Make the canary's candidate the base document and end the canary in one transaction, with a "
				+ "history revision (kind promote).",
				"Refused (exit status 1, naming each instance not CURRENT and the key it refused) unless every live "
						+ "member reports CURRENT; --force promotes anyway and the revision's message records it.",
				"Refused (exit status 3, naming both node versions) when the base document moved since the canary "
						+ "started (a put meanwhile, such as a hotfix): the candidate would replace that change. Start the "
						+ "canary again from the new base, or promote with --overwrite-base.",
				"With --against/--strict the candidate is checked as put checks a document." },
		footer = { "%nExample:%n  zk-spring config promote orders --app orders -m \"limit 9 for everyone\"" })
final class PromoteCommand implements Callable<Integer> {

	@ParentCommand
	ConfigCommand config;

	@Parameters(index = "0", paramLabel = "CONTEXT", description = "The context.")
	String context;

	@Option(names = "--force", description = "Promote even if not every live member is CURRENT (recorded in history).")
	boolean force;

	@Option(names = "--overwrite-base", description = "Promote even though the base document moved since the canary "
			+ "started: the candidate replaces that change (recorded in history).")
	boolean overwriteBase;

	@Mixin
	WriteOptions write = new WriteOptions();

	@Mixin
	FleetOptions fleet = new FleetOptions();

	@Mixin
	CheckOptions checks = new CheckOptions();

	@Override
	public Integer call() throws Exception {
		Publication publication = this.config.withCanaries(this.checks, (canaries) -> canaries.promote(this.context,
				this.fleet.fleetPath(this.context), this.write.change(), this.force, this.overwriteBase,
				(candidate) -> this.config.checkAgainst(this.checks, this.context, candidate)));
		Reports.diff(this.config.spec.commandLine().getOut(), publication, this.write.showValues);
		this.config.spec.commandLine().getErr().println(publication.written()
				? "promoted the canary of context '" + this.context + "': revision " + publication.revision()
						+ " (node version " + publication.version() + "), canary ended" + (this.force ? " (forced)" : "")
				: "dry run: context '" + this.context + "' not promoted (" + publication.diff().size() + " keys would change)");
		return Exits.DONE;
	}

}
