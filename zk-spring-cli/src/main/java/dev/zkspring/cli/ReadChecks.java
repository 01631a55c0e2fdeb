package dev.zkspring.cli;

import picocli.CommandLine.Mixin;

/**
 * The options config's read commands share ({@code validate}, {@code get}, {@code history}, {@code canary-status}):
 * how documents are checked ({@code --against}, {@code --strict}, {@code --max-document-size}) and
 * {@code --output table|json}; one mixin so that each command declares them once and alike.
 */
final class ReadChecks {

	@Mixin
	CheckOptions checks = new CheckOptions();

	@Mixin
	ReadOutput output = new ReadOutput();

	boolean json() {
		return this.output.json();
	}

}
