package dev.zkspring.cli;

import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;

import picocli.CommandLine.Option;

import dev.zkspring.fleet.FleetInstances;

/** The instances a read command looks at ({@code --app}, {@code --fleet-root}), shared by {@code fleet} and {@code leaders}. */
final class FleetSelection {

	@Option(names = "--app", paramLabel = "NAME", description = "Only this application (spring.application.name).")
	@Nullable String app;

	@Option(names = "--fleet-root", paramLabel = "ZNODE", defaultValue = "/fleet",
			description = "As the applications' zk.fleet.root (default: ${DEFAULT-VALUE}).")
	String fleetRoot = "/fleet";

	/** The live instances selected, read from their fleet nodes on a connection of the tool's own. */
	List<FleetInstances.Instance> read(ZkSpringCli cli) throws Exception {
		try (CuratorFramework client = cli.connection.connect(cli.env)) {
			return FleetInstances.read(client, this.fleetRoot, this.app);
		}
	}

	/** The live instances selected, on the caller's connection (which also reads more beside them). */
	List<FleetInstances.Instance> read(CuratorFramework client) throws Exception {
		return FleetInstances.read(client, this.fleetRoot, this.app);
	}

	/** Where the instances were looked for, for a message that found none. */
	String where() {
		return this.fleetRoot + ((this.app != null) ? "/" + this.app : "");
	}

}
