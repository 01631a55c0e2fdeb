package dev.zkspring.cli;

import org.jspecify.annotations.Nullable;

import picocli.CommandLine.Option;

import org.apache.curator.utils.ZKPaths;

/** Where the application's instances report: its fleet path, for the canary commands. */
final class FleetOptions {

	@Option(names = "--app", paramLabel = "NAME", description = "The application's spring.application.name (default: "
			+ "the context's name before any comma).")
	@Nullable String app;

	@Option(names = "--fleet-root", paramLabel = "ZNODE", defaultValue = "/fleet",
			description = "As the applications' zk.fleet.root (default: ${DEFAULT-VALUE}).")
	String fleetRoot = "/fleet";

	String fleetPath(String context) {
		String name = (this.app != null) ? this.app : context.split(",", 2)[0];
		return ZKPaths.makePath(this.fleetRoot, name);
	}

}
