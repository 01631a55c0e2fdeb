package dev.zkspring.config;

import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * The instances' own rules for a context document, for whoever checks one before it is written (the
 * publishing tool): one UTF-8 JSON object, at most the size limit, at most {@link #MAX_DEPTH} levels deep,
 * keys Spring can bind. It runs the very parser the instances load documents with, so the tool and the
 * instances cannot disagree on what a valid document is.
 */
public final class ConfigDocuments {

	/** The instances' default size limit ({@code zk.config.max-document-size}), in bytes. */
	public static final long DEFAULT_MAX_BYTES = 1024 * 1024;

	/** How deep a document may nest, as the instances enforce it. */
	public static final int MAX_DEPTH = JsonDocumentParser.MAX_DEPTH;

	private ConfigDocuments() {
	}

	/**
	 * Check a document as an instance would load it.
	 * @param document the document's bytes
	 * @param maxBytes the size limit the instances run with ({@code zk.config.max-document-size})
	 * @return the flat Spring keys and their values, as the instances would see them
	 * @throws InvalidDocumentException with a reason naming keys and positions, never values
	 */
	public static Map<String, String> validate(byte[] document, long maxBytes) throws InvalidDocumentException {
		try {
			return new JsonDocumentParser(maxBytes).parse(document);
		}
		catch (DocumentRejectedException ex) {
			throw new InvalidDocumentException(ex.reason(), ex.key());
		}
	}

	/** A document an instance would refuse; the message names keys and positions, never values. */
	public static final class InvalidDocumentException extends Exception {

		private final @Nullable String key;

		InvalidDocumentException(String reason, @Nullable String key) {
			super(reason, null, false, false);
			this.key = key;
		}

		/** The key at fault, if the fault is one key's. */
		public @Nullable String key() {
			return this.key;
		}

	}

}
