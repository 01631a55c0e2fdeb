package dev.zkspring.cli;

import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * The {@code zk-spring} command: publishes configuration to the znodes a fleet of zk-spring applications
 * reads, with validation, compare-and-set, history, diff and rollback, and nothing to run but ZooKeeper.
 */
@Command(name = "zk-spring", mixinStandardHelpOptions = true, version = "zk-spring-cli 0.1.0",
		subcommands = { ConfigCommand.class, FleetCommand.class, LeadersCommand.class, LocksCommand.class,
				JobsCommand.class },
		description = "Publish configuration to ZooKeeper safely: validated, compare-and-set, with history.",
		footerHeading = "%nExit status:%n", footer = { Exits.HELP, "%nExample:%n"
				+ "  ZK_CONNECT=zk1:2181 zk-spring config put orders orders.json --message \"raise the limit\"" })
public final class ZkSpringCli {

	@Mixin
	final ConnectionOptions connection = new ConnectionOptions();

	final InputStream in;

	final Map<String, String> env;

	private ZkSpringCli(InputStream in, Map<String, String> env) {
		this.in = in;
		this.env = env;
	}

	/** Runs the tool and exits with its status. */
	public static void main(String[] args) {
		System.exit(run(args, System.in, System.out, System.err, System.getenv()));
	}

	/**
	 * Run the tool in this process.
	 * @param args the command line
	 * @param in what {@code -} reads
	 * @param out where data goes
	 * @param err where diagnostics go
	 * @param env the environment ({@code ZK_CONNECT}, {@code ZK_AUTH}...)
	 * @return the exit status
	 */
	public static int run(String[] args, InputStream in, PrintStream out, PrintStream err, Map<String, String> env) {
		CommandLine command = new CommandLine(new ZkSpringCli(in, env));
		PrintWriter outWriter = new PrintWriter(new java.io.OutputStreamWriter(out, StandardCharsets.UTF_8), true);
		PrintWriter errWriter = new PrintWriter(new java.io.OutputStreamWriter(err, StandardCharsets.UTF_8), true);
		command.setOut(outWriter);
		command.setErr(errWriter);
		command.setExecutionExceptionHandler(Exits::executionFailed);
		command.setParameterExceptionHandler(Exits::usageError);
		command.setExitCodeExceptionMapper(Exits::status);
		command.getSubcommands().get("config").getSubcommands().values().forEach((leaf) -> {
			String[] footer = leaf.getCommandSpec().usageMessage().footer();
			String[] withExits = java.util.Arrays.copyOf(footer, footer.length + 1);
			withExits[footer.length] = "%nExit status:%n" + Exits.HELP;
			leaf.getCommandSpec().usageMessage().footer(withExits);
		});
		int status = command.execute(args);
		outWriter.flush();
		errWriter.flush();
		return status;
	}

}
