package dev.zkspring.cli;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

import org.jspecify.annotations.Nullable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import dev.zkspring.publish.Publication;

/** {@code config rollback CONTEXT --to REV}: publish an earlier revision's document as a new revision. */
@Command(name = "rollback", mixinStandardHelpOptions = true,
		description = "Publish an earlier revision's document as a new revision (history only grows), with the same "
				+ "compare-and-set as put; with --against/--strict that document is checked as put checks one.",
		footer = { "%nExample:%n  zk-spring config rollback orders --to 3 --message \"back to yesterday\"" })
final class RollbackCommand implements Callable<Integer> {

	@ParentCommand
	ConfigCommand config;

	@Parameters(index = "0", paramLabel = "CONTEXT", description = "The context.")
	String context;

	@Option(names = "--to", required = true, paramLabel = "REV", description = "The revision to restore.")
	long to;

	@Option(names = "--expect-version", paramLabel = "N", description = "Write only if the node is at version N.")
	@Nullable Integer expectVersion;

	@Mixin
	WriteOptions write = new WriteOptions();

	@Mixin
	CheckOptions checks = new CheckOptions();

	@Override
	public Integer call() throws Exception {
		Publication publication = this.config.withPublisher(this.checks, (publisher) -> {
			String earlier = publisher.revision(this.context, this.to).document();
			if (earlier != null) {
				// checked as put checks it: a revision may predate the application's metadata
				this.config.checkAgainst(this.checks, this.context,
						publisher.validate(this.context, earlier.getBytes(StandardCharsets.UTF_8)));
			}
			return publisher.rollback(this.context, this.to, this.write.change().expecting(this.expectVersion));
		});
		PutCommand.report(this.config, publication, this.write);
		return Exits.DONE;
	}

}
