package dev.zkspring.config;

import java.nio.charset.StandardCharsets;

/** One bad context document per case the config center must reject; each hides {@link #SECRET}. */
enum BadDocument {

	MALFORMED_JSON("{\"shop\":{\"greeting\":\"" + BadDocument.SECRET + "\"", "malformed JSON at line 1", null),

	ROOT_NOT_AN_OBJECT("[\"" + BadDocument.SECRET + "\"]", "the document's root is an array, not a JSON object", null),

	INVALID_UTF8(null, "the document is not valid UTF-8", null),

	OVER_THE_SIZE_LIMIT("{\"shop\":{\"greeting\":\"" + BadDocument.SECRET + "x".repeat(600) + "\"}}",
			"over the limit of 512 bytes (zk.config.max-document-size)", null),

	NESTED_TOO_DEEP("{\"k\":".repeat(65) + "\"" + BadDocument.SECRET + "\"" + "}".repeat(65),
			"the document nests deeper than 64 levels", null),

	EMPTY_KEY("{\"shop\":{\"\":\"" + BadDocument.SECRET + "\"}}", "the document has an empty key under 'shop'", "shop."),

	UNBINDABLE_KEY("{\"shop\":{\"great]greeting\":\"" + BadDocument.SECRET + "\"}}",
			"the key 'shop.great]greeting' cannot be bound", "shop.great]greeting");

	/** A value that must never appear in a log line, an event or an exception. */
	static final String SECRET = "s3cr3t-value";

	/** What the tests set zk.config.max-document-size to. */
	static final String MAX_SIZE = "512B";

	private final byte[] data;

	final String reason;

	final String key;

	BadDocument(String json, String reason, String key) {
		this.data = (json != null) ? json.getBytes(StandardCharsets.UTF_8) : invalidUtf8();
		this.reason = reason;
		this.key = key;
	}

	byte[] data() {
		return this.data.clone();
	}

	private static byte[] invalidUtf8() {
		byte[] prefix = ("{\"shop\":{\"greeting\":\"" + SECRET).getBytes(StandardCharsets.UTF_8);
		byte[] data = new byte[prefix.length + 4];
		System.arraycopy(prefix, 0, data, 0, prefix.length);
		data[prefix.length] = (byte) 0xC3;
		data[prefix.length + 1] = (byte) 0x28;
		data[prefix.length + 2] = '"';
		data[prefix.length + 3] = '}';
		return data;
	}

}
