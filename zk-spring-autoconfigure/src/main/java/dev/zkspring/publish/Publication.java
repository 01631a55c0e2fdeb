package dev.zkspring.publish;

import java.util.Map;

/**
 * What a publish did (or, in a dry run or when nothing differs, would do).
 * @param context the context's name
 * @param written whether the document and its revision were written
 * @param revision the revision written; {@code -1} when nothing was written
 * @param version the document node's version after the write (or the version in force when nothing was)
 * @param diff the keys that change against the document in force
 * @param before the flat document in force (values: shown only on request)
 * @param after the flat document published (values: shown only on request)
 */
public record Publication(String context, boolean written, long revision, int version, KeyDiff diff,
		Map<String, String> before, Map<String, String> after) {

	/** Names the context, revision and keys, never values, which may be secrets. */
	@Override
	public String toString() {
		return "Publication[" + this.context + ", written=" + this.written + ", revision=" + this.revision
				+ ", version=" + this.version + ", diff=" + this.diff + "]";
	}

}
