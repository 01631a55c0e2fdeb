package dev.zkspring.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code config export DIR}: one CONTEXT.json per context. */
@Command(name = "export", mixinStandardHelpOptions = true,
		description = "Write each context's document to DIR/CONTEXT.json, as stored (so a Git repository can hold them).",
		footer = { "%nExample:%n  zk-spring config export ./config-repo" })
final class ExportCommand implements Callable<Integer> {

	@ParentCommand
	ConfigCommand config;

	@Parameters(index = "0", paramLabel = "DIR", description = "The directory (created if missing).")
	Path dir;

	@Mixin
	CheckOptions checks = new CheckOptions();

	@Override
	public Integer call() throws Exception {
		List<String> exported = this.config.withPublisher(this.checks, (publisher) -> publisher.exportTo(this.dir));
		exported.forEach((context) -> this.config.spec.commandLine().getOut().println(context));
		this.config.spec.commandLine().getErr().println("exported " + exported.size() + " contexts to " + this.dir);
		return Exits.DONE;
	}

}
