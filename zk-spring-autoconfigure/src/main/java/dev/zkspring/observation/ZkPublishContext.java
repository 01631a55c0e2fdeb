package dev.zkspring.observation;

import io.micrometer.observation.Observation;

/** The observation of one write of a ConfigPublisher or ConfigCanaries inside an application, as its conventions read it. */
public class ZkPublishContext extends Observation.Context {

	private final String operation;

	private String context;

	private String outcome = "unknown";

	private String revision = "none";

	/**
	 * Create the context.
	 * @param operation {@code put}, {@code rollback}, {@code delete}, {@code import}, {@code canary},
	 * {@code promote} or {@code abort}
	 * @param context the context's name (for an import, the contexts it published, comma separated, once known)
	 */
	public ZkPublishContext(String operation, String context) {
		this.operation = operation;
		this.context = context;
	}

	/** The operation: the history kind it writes. */
	public String getOperation() {
		return this.operation;
	}

	/** The context's name; for an import, the contexts it published, comma separated ({@code none} for none). */
	public String getContext() {
		return this.context;
	}

	/** Set the contexts an import published, once known. */
	public void setContext(String context) {
		this.context = context;
	}

	/**
	 * What came of it: {@code written}, {@code unchanged}, {@code dry_run}, a refusal ({@code invalid},
	 * {@code conflict}, {@code not_found}) or {@code failed}; set when the write ends.
	 */
	public String getOutcome() {
		return this.outcome;
	}

	/** Set what came of it. */
	public void setOutcome(String outcome) {
		this.outcome = outcome;
	}

	/** The revision written (the last one, for an import), or {@code none}. */
	public String getRevision() {
		return this.revision;
	}

	/** Set the revision written. */
	public void setRevision(String revision) {
		this.revision = revision;
	}

}
