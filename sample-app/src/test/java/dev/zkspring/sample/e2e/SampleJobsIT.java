package dev.zkspring.sample.e2e;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import tools.jackson.core.type.TypeReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 32's acceptance with real processes: ZooKeeper in a JVM of its own ({@code a}, the sample with the
 * embedded server, out of the election), two instances {@code b} and {@code c} of the sample with its
 * {@code groups} profile (jobs {@code recorded} and {@code audit}, one leader group each, at most one group
 * per instance), a schedule published with the {@code zk-spring-cli} jar, run and pause through
 * {@code /actuator/zookeeper/jobs}, and a {@code kill -9} of a group's leader. Everything is observed
 * through the endpoint's view and run history, as an operator sees it.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class SampleJobsIT {

	static final Duration SESSION_TIMEOUT = Duration.ofSeconds(6);

	static final String CRON = "*/2 * * * * ?";

	static int zkPort;

	static final List<SampleProcess> started = new ArrayList<>();

	static SampleProcess b;

	static SampleProcess c;

	@BeforeAll
	static void startFleet() throws Exception {
		zkPort = SampleProcess.freePort();
		Path dataDir = Files.createDirectories(Paths.get(SampleProcess.required("sample.e2e-dir"))).toAbsolutePath()
			.resolve("jobs-db-" + UUID.randomUUID());
		List<String> common = List.of("--sample.data-dir=" + dataDir, "--zk.session-timeout=" + SESSION_TIMEOUT.toSeconds() + "s");
		SampleProcess a = start("jobs-a", common, "--zk.embedded.port=" + zkPort, "--zk.leader.enabled=false");
		a.awaitReady(Duration.ofSeconds(60));
		// a short rebalance hold, so that the instance that won both groups hands one over within seconds
		String[] instance = { "--zk.embedded.enabled=false", "--zk.connect=127.0.0.1:" + zkPort,
				"--spring.profiles.active=groups", "--zk.leader.rebalance-hold=1s", "--sample.job.interval=500ms",
				"--sample.job.duration=100ms", "--sample.audit.interval=500ms" };
		b = start("jobs-b", common, instance);
		c = start("jobs-c", common, instance);
		b.awaitReady(Duration.ofSeconds(60));
		c.awaitReady(Duration.ofSeconds(60));
	}

	static SampleProcess start(String name, List<String> common, String... args) throws Exception {
		List<String> all = new ArrayList<>(common);
		all.addAll(List.of(args));
		SampleProcess process = SampleProcess.start(name, SampleProcess.freePort(), all);
		started.add(process);
		return process;
	}

	@AfterAll
	static void stopFleet() throws Exception {
		for (SampleProcess process : started) {
			if (process.isAlive()) {
				process.kill();
			}
		}
	}

	@Test
	@Order(10)
	void withTwoGroupsAndMaxGroupsOneEachInstanceLeadsOne() throws Exception {
		Set<String> ids = Set.of(b.id(), c.id());
		for (SampleProcess instance : List.of(b, c)) {
			Awaitility.await("each of b and c leads one group, as " + instance + " sees it").atMost(Duration.ofSeconds(20))
				.untilAsserted(() -> {
					Map<String, Object> recorded = job(instance, "recorded");
					Map<String, Object> audit = job(instance, "audit");
					assertThat(recorded).containsEntry("leaderGroup", "recording");
					assertThat(audit).containsEntry("leaderGroup", "auditing");
					assertThat(List.of(recorded.get("leader"), audit.get("leader"))).containsExactlyInAnyOrderElementsOf(ids);
				});
		}
	}

	@Test
	@Order(20)
	void aCronPublishedWithTheToolMovesTheRunsAndAWrongOneIsRefusedNamingTheKey() throws Exception {
		assertThat(cli("{\"zk\":{\"quartz\":{\"jobs\":{\"recorded\":{\"cron\":\"" + CRON + "\"}}}}}", true)).isZero();
		for (SampleProcess instance : List.of(b, c)) {
			Awaitility.await("the new schedule on " + instance).atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(job(instance, "recorded").get("schedule")).asList().containsExactly("cron " + CRON));
		}
		Instant applied = Instant.now();
		awaitRunsOnTheCron(applied, 3);

		String wrong = "{\"zk\":{\"quartz\":{\"jobs\":{\"recorded\":{\"cron\":\"61 * * * * ?\"}}}}}";
		// checked against the jar, the tool refuses the cron itself (Quartz's parser) and publishes nothing
		assertThat(cli(wrong, true)).isEqualTo(1);
		// published without the check, the instances refuse it by key and keep the schedule in force
		assertThat(cli(wrong, false)).isZero();
		for (SampleProcess instance : List.of(b, c)) {
			Awaitility.await("the refusal on " + instance).atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(job(instance, "recorded"))
					.hasEntrySatisfying("refused", (reason) -> assertThat((String) reason).contains("zk.quartz.jobs.recorded.cron"))
					.hasEntrySatisfying("schedule", (schedule) -> assertThat(schedule).asList().containsExactly("cron " + CRON)));
			assertThat(instance.output()).contains("Refused zk.quartz.jobs.recorded.cron");
		}
		awaitRunsOnTheCron(Instant.now(), 2);
	}

	@Test
	@Order(30)
	void runNowPostedToTheInstanceThatDoesNotLeadTheGroupRunsOnceOnTheLeader() throws Exception {
		String leaderId = (String) job(b, "recorded").get("leader");
		SampleProcess follower = leaderId.equals(b.id()) ? c : b;
		assertThat(follower.id()).isNotEqualTo(leaderId);
		assertThat(action(follower, "pause")).containsEntry("status", "DONE");
		try {
			Instant paused = Instant.now();
			Map<String, Object> answer = action(follower, "run");
			assertThat(answer).containsEntry("status", "STARTED");
			assertThat((String) answer.get("message")).contains(leaderId);
			// more than a period of the cron: a paused schedule or a second run would show
			Awaitility.await("one run since the pause, by the leader " + leaderId).during(Duration.ofSeconds(3))
				.atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(runs("recorded", paused)).extracting(Run::instance).containsExactly(leaderId));
			List<Map<String, Object>> recordedRows = b.getJson("/jobs/runs", new TypeReference<>() { });
			assertThat(recordedRows).as("the job's own records of its runs since the pause")
				.filteredOn((row) -> ((Number) row.get("STARTED_AT")).longValue() >= paused.toEpochMilli())
				.extracting((row) -> row.get("INSTANCE")).containsExactly(leaderId);
		}
		finally {
			assertThat(action(follower, "resume")).containsEntry("status", "DONE");
		}
		awaitRunsOnTheCron(Instant.now(), 1);
	}

	@Test
	@Order(40)
	void afterAKillOfAGroupsLeaderTheOtherTakesItOverAndTheHistoryListsBothWithoutOverlap() throws Exception {
		String killedId = (String) job(b, "recorded").get("leader");
		SampleProcess killed = killedId.equals(b.id()) ? b : c;
		SampleProcess survivor = (killed == b) ? c : b;
		String survivorId = survivor.id();
		Instant killedAt = Instant.now();
		killed.kill();
		Awaitility.await("a run of recorded by " + survivorId + " after the kill").atMost(SESSION_TIMEOUT.plusSeconds(10))
			.untilAsserted(() -> assertThat(runs("recorded", killedAt)).extracting(Run::instance).contains(survivorId));
		System.out.println("kill -9 of " + killedId + " -> first run by " + survivorId + " after "
				+ Duration.between(killedAt, runs("recorded", killedAt).get(0).start()).toMillis() + " ms");
		assertThat(job(survivor, "recorded")).containsEntry("leader", survivorId);
		assertThat(job(survivor, "audit")).as("the other group stays").containsEntry("leader", survivorId);
		List<Run> history = runs("recorded", Instant.EPOCH);
		assertThat(history).extracting(Run::instance).contains(killedId, survivorId);
		assertThat(runs("recorded", killedAt)).as("the new leader runs the published schedule")
			.allSatisfy((run) -> assertThat(run.fireTime().toEpochMilli() % 2000).isZero());
		for (String name : List.of("recorded", "audit")) {
			List<Run> runs = runs(name, Instant.EPOCH);
			System.out.println(runs.size() + " runs of " + name + " checked for overlap");
			for (int i = 1; i < runs.size(); i++) {
				assertThat(runs.get(i - 1).end()).as("%s ends before %s starts", runs.get(i - 1), runs.get(i))
					.isBeforeOrEqualTo(runs.get(i).start());
			}
		}
	}

	/** Waits for {@code count} runs of {@code recorded} that started since {@code since}, all at the cron's fire times. */
	private static void awaitRunsOnTheCron(Instant since, int count) {
		Awaitility.await(count + " runs on the cron since " + since).atMost(Duration.ofSeconds(2L * count + 6))
			.untilAsserted(() -> assertThat(runs("recorded", since)).hasSizeGreaterThanOrEqualTo(count)
				.allSatisfy((run) -> assertThat(run.fireTime().toEpochMilli() % 2000).as("fire time of %s", run).isZero()));
	}

	/** The job as {@code GET /actuator/zookeeper/jobs} on {@code instance} shows it. */
	@SuppressWarnings("unchecked")
	private static Map<String, Object> job(SampleProcess instance, String name) throws Exception {
		Map<String, Object> body = instance.getJson("/actuator/zookeeper/jobs", new TypeReference<>() { });
		return ((List<Map<String, Object>>) body.get("jobs")).stream().filter((job) -> name.equals(job.get("name")))
			.findFirst().orElseThrow(() -> new AssertionError("no job " + name + " in " + body));
	}

	/** The job's run history (from whichever instance is alive), oldest first, of runs started since {@code since}. */
	@SuppressWarnings("unchecked")
	private static List<Run> runs(String name, Instant since) throws Exception {
		SampleProcess reader = b.isAlive() ? b : c;
		List<Run> runs = new ArrayList<>();
		for (Map<String, Object> run : (List<Map<String, Object>>) job(reader, name).get("lastRuns")) {
			Run parsed = new Run((String) run.get("instance"), Instant.parse((String) run.get("fireTime")),
					Instant.parse((String) run.get("start")), Instant.parse((String) run.get("end")));
			if (!parsed.start().isBefore(since)) {
				runs.add(parsed);
			}
		}
		runs.sort(Comparator.comparing(Run::start));
		return runs;
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> action(SampleProcess instance, String action) throws Exception {
		var response = instance.postJson("/actuator/zookeeper/jobs/DEFAULT/recorded", "{\"action\":\"" + action + "\"}");
		System.out.println(action + " on " + instance + ": " + response.statusCode() + " " + response.body());
		return SampleProcess.json.readValue(response.body(), Map.class);
	}

	/** Publishes {@code document} as context {@code sample} with the publishing tool's jar; returns its exit status. */
	private static int cli(String document, boolean against) throws Exception {
		List<String> command = new java.util.ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
				"-jar", TourCommands.cliJar(), "--connect", "127.0.0.1:" + zkPort, "config", "put", "sample", "-", "--message",
				"schedule of recorded"));
		if (against) {
			command.addAll(List.of("--against", SampleProcess.jar().toString()));
		}
		Process process = new ProcessBuilder(command)
			.redirectErrorStream(true)
			.start();
		try (var stdin = process.getOutputStream()) {
			stdin.write(document.getBytes(StandardCharsets.UTF_8));
		}
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
		System.out.println("$ zk-spring config put sample - <<< " + document + "\n" + output);
		return process.exitValue();
	}

	record Run(String instance, Instant fireTime, Instant start, Instant end) {
	}

}
