package dev.zkspring.publish;

/**
 * One key of a document checked against the application's configuration metadata.
 * @param key the flat Spring key
 * @param kind what is wrong: a value that cannot work, an undeclared key, or a key the check cannot judge
 * @param message what is wrong and what to fix, naming the key and never its value
 */
public record MetadataFinding(String key, Kind kind, String message) {

	/** Whether the value cannot work for the type the application declares. */
	public boolean error() {
		return this.kind == Kind.INVALID;
	}

	/** Whether the check cannot judge this key, so it must not be reported as checked. */
	public boolean unchecked() {
		return this.kind == Kind.UNCHECKED;
	}

	/** What a finding says of its key. */
	public enum Kind {

		/** The value does not convert to the declared type: the instances will refuse it. */
		INVALID,

		/** The application's own metadata does not declare the key (a typo, or a key read with {@code @Value}). */
		UNDECLARED,

		/**
		 * The check cannot judge the key: no metadata or {@code @ConfigurationProperties} class declares it, or its
		 * type is one the tool cannot read or convert without running the application's code.
		 */
		UNCHECKED

	}

}
