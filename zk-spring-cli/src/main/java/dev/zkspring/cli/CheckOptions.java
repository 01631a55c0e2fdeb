package dev.zkspring.cli;

import java.nio.file.Path;

import org.jspecify.annotations.Nullable;

import picocli.CommandLine.Option;

import org.springframework.util.unit.DataSize;

import dev.zkspring.config.ConfigDocuments;

/** How a document is checked before it is written. */
final class CheckOptions {

	@Option(names = "--against", paramLabel = "APP.jar|METADATA.json",
			description = "Check keys and types against the application's configuration metadata.")
	@Nullable Path against;

	@Option(names = "--strict", description = "With --against: a key the application does not declare is an error.")
	boolean strict;

	@Option(names = "--max-document-size", paramLabel = "SIZE", defaultValue = "1MB",
			description = "As the applications' zk.config.max-document-size (default: ${DEFAULT-VALUE}).")
	String maxDocumentSize = "1MB";

	long maxDocumentBytes() {
		try {
			long bytes = DataSize.parse(this.maxDocumentSize).toBytes();
			if (bytes > 0) {
				return bytes;
			}
		}
		catch (IllegalArgumentException ex) {
			// reported below
		}
		throw new IllegalArgumentException("--max-document-size '" + this.maxDocumentSize + "' is not a positive size "
				+ "such as 1MB (default " + ConfigDocuments.DEFAULT_MAX_BYTES + " bytes)");
	}

}
