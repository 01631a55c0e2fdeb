package dev.zkspring.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

import org.jspecify.annotations.Nullable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import dev.zkspring.config.ConfigCanary;
import dev.zkspring.publish.Publication;

/** {@code config put CONTEXT FILE}: validate, show the diff, write with compare-and-set. */
@Command(name = "put", mixinStandardHelpOptions = true,
		description = { "Validate a document, show its key-level diff against what is in force, and publish it as a "
				+ "new revision only if the node's version is still the one read (or --expect-version).",
				"A concurrent change is refused with exit status 3 and nothing written." },
		footer = { "%nExample:%n  zk-spring config put orders orders.json --message \"raise the limit\" "
				+ "--against target/orders.jar" })
final class PutCommand implements Callable<Integer> {

	@ParentCommand
	ConfigCommand config;

	@Parameters(index = "0", paramLabel = "CONTEXT", description = "The context, e.g. orders or application,prod.")
	String context;

	@Parameters(index = "1", paramLabel = "FILE", description = "The JSON document; - reads stdin.")
	String file;

	@Option(names = "--expect-version", paramLabel = "N",
			description = "Write only if the node is at version N (-1: only if it does not exist yet).")
	@Nullable Integer expectVersion;

	@Mixin
	WriteOptions write = new WriteOptions();

	@Mixin
	CheckOptions checks = new CheckOptions();

	@Override
	public Integer call() throws Exception {
		byte[] document = this.config.read(this.file);
		// the canary lookup after the write shares its connection: one session per command
		ConfigCanary[] canary = new ConfigCanary[1];
		Publication publication = this.config.withBoth(this.checks, (publisher, canaries) -> {
			this.config.checkAgainst(this.checks, this.context, publisher.validate(this.context, document));
			Publication written = publisher.put(this.context, document, this.write.change().expecting(this.expectVersion));
			canary[0] = canaries.canary(this.context);
			return written;
		});
		report(this.config, publication, this.write);
		if (canary[0] != null) {
			this.config.spec.commandLine().getErr().println("note: canary revision " + canary[0].revision() + " runs for "
					+ "context '" + this.context + "': its members " + String.join(",", canary[0].instances())
					+ " keep the candidate; the other instances apply this document (config promote / config abort "
					+ "end the canary)");
		}
		return Exits.DONE;
	}

	static void report(ConfigCommand config, Publication publication, WriteOptions write) {
		PrintWriter out = config.spec.commandLine().getOut();
		PrintWriter err = config.spec.commandLine().getErr();
		Reports.diff(out, publication, write.showValues);
		if (publication.written()) {
			err.println("published context '" + publication.context() + "' revision " + publication.revision()
					+ " (node version " + publication.version() + ", " + publication.diff().size()
					+ ((publication.diff().size() == 1) ? " key changed)" : " keys changed)"));
		}
		else if (write.dryRun) {
			err.println("dry run: context '" + publication.context() + "' not written (" + publication.diff().size()
					+ " keys would change, node version " + publication.version() + ")");
		}
		else {
			err.println("context '" + publication.context() + "' already holds this document (node version "
					+ publication.version() + "): nothing written");
		}
	}

}
