package dev.zkspring.cli;

/** The exit statuses of the commands that only read, as their {@code --help} shows them. */
final class ReadExits {

	static final String HELP = "  0  done%n  2  usage error (bad option)%n  4  cannot reach ZooKeeper within --timeout%n"
			+ "  5  ZooKeeper refused access: check --auth / ZK_AUTH%n";

	private ReadExits() {
	}

}
