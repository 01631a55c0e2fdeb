package dev.zkspring.cli;

import org.apache.zookeeper.KeeperException;

import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

import dev.zkspring.client.ZkStartupException;
import dev.zkspring.publish.PublishException;

/** The exit statuses, one per outcome, and the one-line message each failure prints on stderr. */
final class Exits {

	static final int DONE = 0;

	static final int REFUSED = 1;

	static final int USAGE = 2;

	static final int CONFLICT = 3;

	static final int UNREACHABLE = 4;

	static final int DENIED = 5;

	static final int UNCHECKED = 6;

	/** jobs: nobody takes part in the application's election, so nothing was asked. */
	static final int NO_LEADER = 7;

	/** jobs: the leader did not answer in time; the request was withdrawn, nothing was done. */
	static final int TIMED_OUT = 8;

	static final String HELP = "  0  done%n  1  refused by validation or by promote's check (nothing written)%n  2  usage error (bad option, "
			+ "unknown revision or file)%n  3  conflict: the document or canary node moved, a canary already runs, or promote's base moved "
			+ "since the canary started (nothing written)%n  4  cannot "
			+ "reach ZooKeeper within --timeout%n  5  ZooKeeper refused access: check --auth / ZK_AUTH%n  6  --against cannot check a key: "
			+ "the application declares no type for it that the tool can read; add spring-boot-configuration-processor to its "
			+ "build (nothing written)%n";

	private Exits() {
	}

	static int status(Throwable failure) {
		if (failure instanceof PublishException publish) {
			return switch (publish.reason()) {
				case INVALID -> REFUSED;
				case CONFLICT -> CONFLICT;
				case NOT_FOUND -> USAGE;
			};
		}
		if (failure instanceof Unchecked) {
			return UNCHECKED;
		}
		if (failure instanceof Unreachable || failure instanceof KeeperException.ConnectionLossException
				|| failure instanceof KeeperException.SessionExpiredException
				|| failure instanceof KeeperException.OperationTimeoutException) {
			return UNREACHABLE;
		}
		if (failure instanceof KeeperException.NoAuthException || failure instanceof KeeperException.AuthFailedException) {
			return DENIED;
		}
		if (failure instanceof ZkStartupException || failure instanceof IllegalArgumentException
				|| failure instanceof CommandLine.ParameterException) {
			return USAGE;
		}
		return REFUSED;
	}

	static String message(Throwable failure) {
		if (failure instanceof KeeperException.NoAuthException || failure instanceof KeeperException.AuthFailedException) {
			return "ZooKeeper refused access to " + ((KeeperException) failure).getPath() + " ("
					+ ((KeeperException) failure).code() + "): give credentials its ACL names, with ZK_AUTH or --auth "
					+ "scheme:credentials; nothing was written";
		}
		if (failure instanceof KeeperException keeper && status(failure) == UNREACHABLE) {
			return "lost the connection to ZooKeeper (" + keeper.code() + ") at " + keeper.getPath()
					+ ": check the ensemble; a write in flight was made whole or not at all, see config history";
		}
		if (failure instanceof ZkStartupException startup) {
			return startup.getDescription() + " " + startup.getAction();
		}
		String message = failure.getMessage();
		if (failure instanceof PublishException || failure instanceof Unreachable || failure instanceof Unchecked
				|| failure instanceof IllegalArgumentException || failure instanceof IllegalStateException) {
			return String.valueOf(message);
		}
		return failure.getClass().getSimpleName() + ((message != null) ? ": " + message : "");
	}

	static int executionFailed(Exception failure, CommandLine command, ParseResult parsed) {
		command.getErr().println("zk-spring: " + oneLine(message(failure)));
		return status(failure);
	}

	static int usageError(CommandLine.ParameterException failure, String[] args) {
		CommandLine command = failure.getCommandLine();
		command.getErr().println("zk-spring: " + oneLine(failure.getMessage()) + " (see "
				+ command.getCommandSpec().qualifiedName() + " --help)");
		return USAGE;
	}

	private static String oneLine(String message) {
		return message.replace('\n', ' ').replace('\r', ' ');
	}

	/** ZooKeeper did not answer within the timeout. */
	static final class Unreachable extends RuntimeException {

		Unreachable(String message) {
			super(message, null, false, false);
		}

	}

	/** {@code --against} cannot check a key of the document, so it does not claim to have checked it. */
	static final class Unchecked extends RuntimeException {

		Unchecked(String message) {
			super(message, null, false, false);
		}

	}

}
