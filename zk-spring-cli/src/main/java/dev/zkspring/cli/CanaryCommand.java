package dev.zkspring.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import org.jspecify.annotations.Nullable;

import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import dev.zkspring.publish.Publication;

/** {@code config canary CONTEXT FILE}: a candidate document for a fixed set of instances. */
@Command(name = "canary", mixinStandardHelpOptions = true,
		description = { "Give a candidate document to a fixed set of instances (by id, or N live instances chosen "
				+ "now and then fixed); the others keep the base document.",
				"Validated as put validates; written with a history revision (kind canary) and a compare-and-set on the "
						+ "canary node. A canary already running is replaced only with --replace (else exit status 3).",
				"Then: config canary-status, config promote or config abort." },
		footer = { "%nExamples:%n  zk-spring config canary orders orders.json --instances node-2 -m \"try limit 9\"%n"
				+ "  zk-spring config canary orders orders.json --count 2 --app orders" })
final class CanaryCommand implements Callable<Integer> {

	@ParentCommand
	ConfigCommand config;

	@Parameters(index = "0", paramLabel = "CONTEXT", description = "The context, e.g. orders.")
	String context;

	@Parameters(index = "1", paramLabel = "FILE", description = "The candidate JSON document; - reads stdin.")
	String file;

	@ArgGroup(exclusive = true, multiplicity = "1")
	Members members;

	@Option(names = "--replace", description = "Replace a canary already running for the context.")
	boolean replace;

	@Mixin
	WriteOptions write = new WriteOptions();

	@Mixin
	CheckOptions checks = new CheckOptions();

	@Mixin
	FleetOptions fleet = new FleetOptions();

	static final class Members {

		@Option(names = "--instances", split = ",", paramLabel = "ID", required = true,
				description = "The instance ids (zk.leader.id) that run the candidate.")
		@Nullable List<String> instances;

		@Option(names = "--count", paramLabel = "N", required = true,
				description = "Choose N live instances of the application now (sorted by id); the set stays fixed.")
		@Nullable Integer count;

	}

	@Override
	public Integer call() throws Exception {
		byte[] document = this.config.read(this.file);
		PrintWriter err = this.config.spec.commandLine().getErr();
		List<String> chosen = new ArrayList<>();
		Publication publication = this.config.withCanaries(this.checks, (canaries) -> {
			this.config.checkAgainst(this.checks, this.context, canaries.validate(this.context, document));
			if (this.members.count != null) {
				chosen.addAll(choose(canaries.liveInstances(this.fleet.fleetPath(this.context))));
			}
			else {
				chosen.addAll(this.members.instances);
			}
			return canaries.start(this.context, document, chosen, this.write.change(), this.replace);
		});
		Reports.diff(this.config.spec.commandLine().getOut(), publication, this.write.showValues);
		if (publication.written()) {
			err.println("canary started for context '" + this.context + "' revision " + publication.revision() + " on "
					+ String.join(",", chosen) + " (base document stays at node version " + publication.version() + ", "
					+ publication.diff().size() + " keys differ); follow it with config canary-status " + this.context);
		}
		else {
			err.println("dry run: canary for context '" + this.context + "' not written (would run on "
					+ String.join(",", chosen) + ", " + publication.diff().size() + " keys differ)");
		}
		return Exits.DONE;
	}

	private List<String> choose(List<String> live) {
		int count = this.members.count;
		String path = this.fleet.fleetPath(this.context);
		if (count < 1) {
			throw new IllegalArgumentException("--count is " + count + ": choose at least 1 instance");
		}
		if (live.size() < count) {
			throw new IllegalArgumentException("--count " + count + ": only " + live.size() + " live instances report in "
					+ path + " (" + String.join(",", live) + "); lower --count, or check --app / --fleet-root");
		}
		return live.subList(0, count);
	}

}
