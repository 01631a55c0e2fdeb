package dev.zkspring.publish;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.zkspring.config.ConfigDocuments;

/**
 * One context as read just before a write: the document node, the history head and the revision numbers
 * kept. A write replaces exactly these versions or nothing.
 * @param context the context's name
 * @param data the document's bytes (empty when absent)
 * @param version the document node's version; {@code -1} when absent
 * @param head the history head; {@code null} when the context has no history yet
 * @param headVersion the head node's version; {@code -1} when absent
 * @param kept the revision numbers kept, oldest first
 */
record ContextState(String context, byte[] data, int version, @Nullable Revision head, int headVersion,
		List<Long> kept) {

	boolean exists() {
		return this.version >= 0;
	}

	/** Whether the document was written (or deleted) outside the tool since its last revision. */
	boolean writtenOutside() {
		return (this.head == null) ? exists() : this.head.version() != this.version;
	}

	long nextRevision() {
		return (this.head != null) ? this.head.revision() + 1 : 1;
	}

	@Nullable String text() {
		return exists() ? new String(this.data, StandardCharsets.UTF_8) : null;
	}

	/** The document's flat keys; a document an instance would refuse counts as empty. */
	Map<String, String> flat(long maxBytes) {
		return flat(this.data, maxBytes);
	}

	static Map<String, String> flat(byte @Nullable [] data, long maxBytes) {
		if (data == null) {
			return Map.of();
		}
		try {
			return ConfigDocuments.validate(data, maxBytes);
		}
		catch (ConfigDocuments.InvalidDocumentException ex) {
			return Map.of();
		}
	}

}
