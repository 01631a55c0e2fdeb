package dev.zkspring.cli;

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
				+ "compare-and-set as put.",
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
		Publication publication = this.config.withPublisher(this.checks,
				(publisher) -> publisher.rollback(this.context, this.to, this.write.change().expecting(this.expectVersion)));
		PutCommand.report(this.config, publication, this.write);
		return Exits.DONE;
	}

}
