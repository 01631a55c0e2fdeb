package dev.zkspring.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import dev.zkspring.config.ConfigDocuments;
import dev.zkspring.publish.Publication;

/** {@code config import DIR}: publish what differs, each context as a revision. */
@Command(name = "import", mixinStandardHelpOptions = true,
		description = { "Publish the DIR/CONTEXT.json files whose keys differ from what is in force, each as a revision.",
				"Every file is validated before any is written, and every context is written in one transaction: all of "
						+ "them or none (a conflict exits 3, a node's ACL 5, naming the node; an import too large for one "
						+ "transaction exits 1: import the files in smaller groups)." },
		footer = { "%nExample:%n  zk-spring config import ./config-repo --message \"release 42\" --dry-run" })
final class ImportCommand implements Callable<Integer> {

	@ParentCommand
	ConfigCommand config;

	@Parameters(index = "0", paramLabel = "DIR", description = "The directory of CONTEXT.json files.")
	Path dir;

	@Mixin
	WriteOptions write = new WriteOptions();

	@Mixin
	CheckOptions checks = new CheckOptions();

	@Override
	public Integer call() throws Exception {
		if (this.checks.against != null && Files.isDirectory(this.dir)) {
			try (Stream<Path> files = Files.list(this.dir)) {
				for (Path file : files.filter((f) -> f.toString().endsWith(".json")).sorted().toList()) {
					String name = file.getFileName().toString();
					String context = name.substring(0, name.length() - ".json".length());
					try {
						this.config.checkAgainst(this.checks, context,
								ConfigDocuments.validate(Files.readAllBytes(file), this.checks.maxDocumentBytes()));
					}
					catch (ConfigDocuments.InvalidDocumentException ex) {
						// reported with the file's name by the import itself
					}
				}
			}
		}
		List<Publication> publications = this.config.withPublisher(this.checks,
				(publisher) -> publisher.importFrom(this.dir, this.write.change()));
		for (Publication publication : publications) {
			this.config.spec.commandLine().getOut().println("context " + publication.context() + ":");
			PutCommand.report(this.config, publication, this.write);
		}
		this.config.spec.commandLine().getErr().println((this.write.dryRun ? "dry run: " : "") + publications.size()
				+ " contexts differ" + (this.write.dryRun ? "; nothing written" : " and were published"));
		return Exits.DONE;
	}

}
