package dev.zkspring.cli;

import java.io.PrintWriter;
import java.net.InetAddress;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.jspecify.annotations.Nullable;
import org.quartz.JobKey;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

import dev.zkspring.jobs.JobRequester;
import dev.zkspring.leader.JobAnswer;

/**
 * {@code zk-spring jobs list|history|run|pause|resume}: leader-gated Quartz jobs from the command line, through the
 * same requests the {@code zookeeper} endpoint makes (consumed once by the leader, answered, withdrawn on timeout),
 * so an operator on call needs no HTTP access to any instance.
 */
@Command(name = "jobs", mixinStandardHelpOptions = true,
		description = { "Leader-gated Quartz jobs: list them, show a job's last runs, and have the leader run, pause or "
				+ "resume one, through the requests the instances' zookeeper endpoint makes." },
		subcommands = { JobsList.class, JobsCommand.History.class, JobsCommand.Run.class,
				JobsCommand.Pause.class, JobsCommand.Resume.class },
		footerHeading = "%nExit status:%n", footer = { JobsCommand.HELP,
				"%nExample:%n  ZK_CONNECT=zk1:2181 zk-spring jobs run report --app orders" })
final class JobsCommand {

	static final String HELP = "  0  done (run: the leader started the run; pause/resume: the leader did it)%n"
			+ "  1  refused by the leader (the message says why, e.g. a job paused by zk.quartz.jobs.<job>.paused)%n"
			+ "  2  usage error (bad option), or the leader has no such job%n"
			+ "  4  cannot reach ZooKeeper within --timeout%n  5  ZooKeeper refused access: check --auth / ZK_AUTH%n"
			+ "  7  no leader: nobody takes part in the election, or nobody leads the job's leader group (named), nothing was "
			+ "done%n"
			+ "  8  timed out: no answer within --wait, the request was withdrawn and nothing was done%n";

	@ParentCommand
	ZkSpringCli cli;

	/** Which application's jobs: its election's latch node, and its fleet path for who leads. */
	static final class Selection {

		@Option(names = "--app", required = true, paramLabel = "NAME",
				description = "The application (spring.application.name).")
		String app = "";

		@Option(names = "--election", paramLabel = "NAME",
				description = "As the application's zk.leader.group (default: the application's name).")
		@Nullable String election;

		@Option(names = "--leader-root", paramLabel = "ZNODE", defaultValue = "/leader",
				description = "As the application's zk.leader.root (default: ${DEFAULT-VALUE}).")
		String leaderRoot = "/leader";

		@Option(names = "--fleet-root", paramLabel = "ZNODE", defaultValue = "/fleet",
				description = "As the application's zk.fleet.root (default: ${DEFAULT-VALUE}), for who leads.")
		String fleetRoot = "/fleet";

		@Option(names = "--job-group", paramLabel = "GROUP", defaultValue = "DEFAULT",
				description = "The job's Quartz group (default: ${DEFAULT-VALUE}).")
		String jobGroup = "DEFAULT";

		String latchPath() {
			return ZKPaths.makePath(this.leaderRoot, (this.election != null) ? this.election : this.app);
		}

	}

	/** What every subcommand shares: the connection, the selection, the output. */
	abstract static class Base implements Callable<Integer> {

		@ParentCommand
		JobsCommand jobs;

		@Spec
		CommandSpec spec;

		@Mixin
		Selection selection = new Selection();

		@Mixin
		ReadOutput output = new ReadOutput();

		@Override
		public Integer call() throws Exception {
			try (CuratorFramework client = this.jobs.cli.connection.connect(this.jobs.cli.env)) {
				return run(client, new JobRequester(client, this.selection.latchPath()), this.spec.commandLine().getOut());
			}
		}

		abstract int run(CuratorFramework client, JobRequester requester, PrintWriter out) throws Exception;

		JobKey job(String name) {
			return JobKey.jobKey(name, this.selection.jobGroup);
		}

	}

	@Command(name = "history", mixinStandardHelpOptions = true,
			description = "A job's last runs, newest first: instance, scheduled fire time, start, end, outcome, error class.",
			footerHeading = "%nExit status:%n", footer = { HELP, "%nExample:%n  zk-spring jobs history report --app orders" })
	static final class History extends Base {

		@Parameters(index = "0", paramLabel = "JOB", description = "The job's Quartz name.")
		String name = "";

		@Override
		int run(CuratorFramework client, JobRequester requester, PrintWriter out) throws Exception {
			List<Map<String, Object>> runs = requester.history(job(this.name));
			if (this.output.json()) {
				Map<String, Object> body = new LinkedHashMap<>();
				body.put("group", this.selection.jobGroup);
				body.put("name", this.name);
				body.put("runs", runs);
				ReadOutput.printJson(out, body);
				return Exits.DONE;
			}
			String format = "%-20s %-24s %-24s %-24s %-9s %s";
			out.println(String.format(format, "INSTANCE", "FIRE TIME", "START", "END", "OUTCOME", "ERROR"));
			for (Map<String, Object> run : runs) {
				out.println(String.format(format, run.get("instance"), run.get("fireTime"), run.get("start"), run.get("end"),
						run.get("outcome"), ReadOutput.orDash(run.get("error"))));
			}
			if (runs.isEmpty()) {
				this.spec.commandLine().getErr().println("no runs of " + job(this.name) + " are kept under "
						+ this.selection.latchPath() + ".jobs");
			}
			return Exits.DONE;
		}

	}

	/** run, pause and resume: one request, its answer, its exit status. */
	abstract static class Request extends Base {

		@Parameters(index = "0", paramLabel = "JOB", description = "The job's Quartz name.")
		String name = "";

		@Option(names = "--wait", paramLabel = "DURATION", defaultValue = "10s", converter = Durations.class,
				description = "How long to wait for the leader's answer before the request is withdrawn, as the "
						+ "application's zk.quartz.request-timeout (default: ${DEFAULT-VALUE}).")
		Duration wait = Duration.ofSeconds(10);

		abstract String action();

		@Override
		int run(CuratorFramework client, JobRequester requester, PrintWriter out) throws Exception {
			JobAnswer answer = answer(client, requester);
			if (this.output.json()) {
				Map<String, Object> body = new LinkedHashMap<>();
				body.put("status", answer.status().name());
				body.put("message", answer.message());
				ReadOutput.printJson(out, body);
			}
			else {
				out.println(answer.status() + ": " + answer.message());
			}
			return status(answer.status());
		}

		/**
		 * The leader's answer; for a job of a leader group (as the fleet nodes say) "no leader" naming the group when
		 * nobody takes part in the group's election (nothing asked), or when nobody led it while the request waited
		 * (withdrawn unanswered): only the group's leader takes such a request, so it would only time out.
		 */
		private JobAnswer answer(CuratorFramework client, JobRequester requester) throws Exception {
			JobKey job = job(this.name);
			String latch = this.selection.latchPath();
			FleetJobCatalog.Job listed = FleetJobCatalog.read(client, this.selection.fleetRoot, this.selection.app, latch)
				.job(job);
			String group = (listed != null) ? listed.leaderGroup() : null;
			String groupLatch = (group != null) ? FleetJobCatalog.groupLatch(latch, group) : null;
			if (groupLatch != null && !FleetJobCatalog.hasParticipants(client, groupLatch)) {
				return new JobAnswer(JobAnswer.Status.NO_LEADER, "No instance takes part in leader group " + group
						+ " (election " + groupLatch + ") now: nothing was done to " + job + ".");
			}
			JobAnswer answer = requester.request(job, action(), from(), this.wait);
			if (answer.status() == JobAnswer.Status.TIMEOUT && groupLatch != null && FleetJobCatalog
				.read(client, this.selection.fleetRoot, this.selection.app, latch).leaderOf(groupLatch) == null) {
				return new JobAnswer(JobAnswer.Status.NO_LEADER, "No instance leads leader group " + group + " (election "
						+ groupLatch + "): the request was withdrawn unanswered, nothing was done to " + job + ".");
			}
			return answer;
		}

		static int status(JobAnswer.Status status) {
			return switch (status) {
				case DONE, STARTED -> Exits.DONE;
				case REFUSED -> Exits.REFUSED;
				case UNKNOWN_JOB -> Exits.USAGE;
				case NO_LEADER -> Exits.NO_LEADER;
				case TIMEOUT -> Exits.TIMED_OUT;
			};
		}

		private static String from() {
			String host;
			try {
				host = InetAddress.getLocalHost().getHostName();
			}
			catch (Exception ex) {
				host = "unknown-host";
			}
			return "zk-spring-cli " + System.getProperty("user.name", "unknown") + "@" + host;
		}

	}

	@Command(name = "run", mixinStandardHelpOptions = true,
			description = "Have the leader run the job now, once (answered when the run starts).",
			footerHeading = "%nExit status:%n", footer = { HELP, "%nExample:%n  zk-spring jobs run report --app orders" })
	static final class Run extends Request {

		@Override
		String action() {
			return "run";
		}

	}

	@Command(name = "pause", mixinStandardHelpOptions = true,
			description = "Have the leader pause the job; the pause holds across handovers until resumed.",
			footerHeading = "%nExit status:%n", footer = { HELP, "%nExample:%n  zk-spring jobs pause report --app orders" })
	static final class Pause extends Request {

		@Override
		String action() {
			return "pause";
		}

	}

	@Command(name = "resume", mixinStandardHelpOptions = true,
			description = "Have the leader resume a job an operator paused (one paused by configuration is refused).",
			footerHeading = "%nExit status:%n", footer = { HELP, "%nExample:%n  zk-spring jobs resume report --app orders" })
	static final class Resume extends Request {

		@Override
		String action() {
			return "resume";
		}

	}

}
