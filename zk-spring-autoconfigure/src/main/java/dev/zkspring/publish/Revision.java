package dev.zkspring.publish;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * One entry of a context's history: the document a publish (or a write made outside the tool) put in
 * force, with who, when and why.
 * @param revision the revision number, counting up from 1 per context
 * @param version the document node's version this revision produced ({@code -1}: the node was deleted)
 * @param time when it was published (for a write outside the tool: when the tool first saw it)
 * @param author who published it; {@link ConfigPublisher#UNKNOWN_AUTHOR} for a write outside the tool
 * @param message why; {@code null} for none
 * @param kind {@code put}, {@code rollback}, {@code import}, {@code delete}, {@code outside}, or for canaries {@code canary}, {@code promote}, {@code abort}
 * @param keys the keys it changed against the revision before it
 * @param document the document's text; {@code null} when the node was deleted
 */
public record Revision(long revision, int version, Instant time, String author, @Nullable String message,
		String kind, KeyDiff keys, @Nullable String document) {

	/** Names the revision and its keys, never the document, whose values may be secrets. */
	@Override
	public String toString() {
		return "Revision[" + this.revision + ", version=" + this.version + ", time=" + this.time + ", author="
				+ this.author + ", kind=" + this.kind + ", keys=" + this.keys + "]";
	}

}
