package dev.zkspring.cli;

import org.jspecify.annotations.Nullable;

import picocli.CommandLine.Option;

import dev.zkspring.publish.Change;

/** Who writes and why: recorded in each revision. */
final class WriteOptions {

	@Option(names = "--author", paramLabel = "NAME", description = "Recorded as the revision's author (default: "
			+ "the OS user).")
	@Nullable String author;

	@Option(names = { "-m", "--message" }, paramLabel = "TEXT", description = "Why: recorded in the revision.")
	@Nullable String message;

	@Option(names = "--dry-run", description = "Validate and show the diff; write nothing.")
	boolean dryRun;

	@Option(names = "--keep", defaultValue = "100", paramLabel = "N",
			description = "Revisions kept per context; older ones are trimmed (default: ${DEFAULT-VALUE}).")
	int keep = Change.DEFAULT_KEEP;

	@Option(names = "--show-values", description = "Show values in the diff (they may be secrets).")
	boolean showValues;

	Change change() {
		String author = (this.author != null) ? this.author : System.getProperty("user.name", "unknown");
		if (this.keep < 1) {
			throw new IllegalArgumentException("--keep is " + this.keep + ": keep at least 1 revision");
		}
		return new Change(author, this.message, null, this.keep, this.dryRun);
	}

}
