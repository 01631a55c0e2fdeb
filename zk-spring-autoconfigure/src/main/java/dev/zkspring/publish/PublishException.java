package dev.zkspring.publish;

/**
 * A publish refused before anything was written; the message names the context, the key or revision,
 * and what to fix, in one line, and never a value.
 */
public class PublishException extends RuntimeException {

	/** Why a publish was refused, so a caller (the command-line tool) can tell the cases apart. */
	public enum Reason {

		/** The document (or a context name) breaks the instances' rules or the application's metadata. */
		INVALID,

		/** The document node's version moved since it was read (or is not the one expected). */
		CONFLICT,

		/** A revision, context or file that does not exist was named. */
		NOT_FOUND

	}

	private final Reason reason;

	public PublishException(Reason reason, String message) {
		super(message, null, false, false);
		this.reason = reason;
	}

	/** Why the publish was refused. */
	public Reason reason() {
		return this.reason;
	}

}
