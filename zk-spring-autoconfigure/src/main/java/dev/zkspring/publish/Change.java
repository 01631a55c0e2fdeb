package dev.zkspring.publish;

import org.jspecify.annotations.Nullable;

/**
 * Who publishes, why, and under which conditions: the audit fields of the revision a write makes and the
 * compare-and-set it is made with.
 * @param author who publishes (recorded in the revision)
 * @param message why (recorded in the revision); {@code null} for none
 * @param expectedVersion the document node version the write must replace; {@code null} for the version
 * read just before writing ({@code -1} for a context that must not exist yet)
 * @param keep how many revisions the context's history keeps; older ones are trimmed in the same write
 * @param dryRun whether to validate and compute the diff only, writing nothing
 */
public record Change(String author, @Nullable String message, @Nullable Integer expectedVersion, int keep,
		boolean dryRun) {

	/** Revisions kept per context unless told otherwise. */
	public static final int DEFAULT_KEEP = 100;

	public Change {
		if (author == null || author.isBlank()) {
			throw new IllegalArgumentException("the author is empty: name who publishes (--author)");
		}
		if (keep < 1) {
			throw new IllegalArgumentException("keep is " + keep + ": keep at least 1 revision (--keep)");
		}
	}

	/** A change by an author with a message, checked against the version read, keeping the default history. */
	public static Change by(String author, @Nullable String message) {
		return new Change(author, message, null, DEFAULT_KEEP, false);
	}

	/** This change, compare-and-set against the given node version. */
	public Change expecting(@Nullable Integer version) {
		return new Change(this.author, this.message, version, this.keep, this.dryRun);
	}

	/** This change, keeping the given number of revisions. */
	public Change keeping(int keep) {
		return new Change(this.author, this.message, this.expectedVersion, keep, this.dryRun);
	}

	/** This change as a dry run (or not). */
	public Change dryRun(boolean dryRun) {
		return new Change(this.author, this.message, this.expectedVersion, this.keep, dryRun);
	}

	/** This change with another message. */
	public Change withMessage(@Nullable String message) {
		return new Change(this.author, message, this.expectedVersion, this.keep, this.dryRun);
	}

}
