package dev.zkspring.sample.e2e;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

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
 * Issue 40's acceptance with real processes: ZooKeeper in a JVM of its own ({@code a}, out of the election,
 * it serves the shared database too), three instances of the sample with its {@code shards} profile (the job
 * {@code regions}: 4 shards with parameters, a cron every 2 s, requesting recovery), its leader group given
 * by the configuration document in ZooKeeper. Then (a) a rolling change of the grouping: a document moving
 * {@code regions} to another group is published, and the instances restart one by one, so old and new
 * groupings run side by side; (b) {@code kill -9} of a shard owner mid-run, then of the leader of the job's
 * group mid-run. Every check reads the runs the instances journaled in the shared database: each (fire
 * time, shard) ran to its end exactly once, with its parameter, on every fire time of the window, and the
 * shard cut short by each kill was re-run once, late, marked recovering.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 420, unit = TimeUnit.SECONDS)
class SampleShardsIT {

	static final Duration SESSION_TIMEOUT = Duration.ofSeconds(4);

	/** The cron of {@code regions} in the shards profile: every 2 s. */
	static final long PERIOD = 2000;

	static final List<String> REGIONS = List.of("Beijing", "Shanghai", "Shenzhen", "Hangzhou");

	static int zkPort;

	static List<String> common;

	static final List<SampleProcess> started = new ArrayList<>();

	/** The instances of the job now, in the order they were started. */
	static final List<SampleProcess> fleet = new ArrayList<>();

	static SampleProcess a;

	/** The first fire time all three instances ran shards of: the window checked starts there. */
	static long checkedFrom;

	/** Runs cut short by a kill -9, as (fire time, shard): each must be re-run once, marked recovering. */
	static final Map<String, Long> cutShort = new ConcurrentHashMap<>();

	static final Set<String> killed = ConcurrentHashMap.newKeySet();

	static final List<Long> kills = new java.util.concurrent.CopyOnWriteArrayList<>();

	@BeforeAll
	static void startFleet() throws Exception {
		zkPort = SampleProcess.freePort();
		Path dataDir = Files.createDirectories(Paths.get(SampleProcess.required("sample.e2e-dir"))).toAbsolutePath()
			.resolve("shards-db-" + UUID.randomUUID());
		common = List.of("--sample.data-dir=" + dataDir, "--zk.session-timeout=" + SESSION_TIMEOUT.toSeconds() + "s");
		a = start("shards-a", "--zk.embedded.port=" + zkPort, "--zk.leader.enabled=false");
		a.awaitReady(Duration.ofSeconds(90));
		assertThat(cli("{\"zk\":{\"leader\":{\"groups\":{\"old-grouping\":\"regions\"}}}}")).isZero();
		for (String name : List.of("shards-b", "shards-c", "shards-d")) {
			fleet.add(startInstance(name));
		}
		for (SampleProcess instance : fleet) {
			instance.awaitReady(Duration.ofSeconds(90));
		}
	}

	static SampleProcess startInstance(String name) throws Exception {
		// each shard works 1.2 s of its 2 s period, so a kill -9 can catch one mid-run
		return start(name, "--zk.embedded.enabled=false", "--zk.connect=127.0.0.1:" + zkPort, "--spring.profiles.active=shards",
				"--sample.regions.duration=1200ms", "--sample.job.interval=1h");
	}

	static SampleProcess start(String name, String... args) throws Exception {
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
	void theThreeInstancesShareTheFourShardsAndTheStatusPageShowsWhoOwnsWhich() throws Exception {
		List<String> ids = new ArrayList<>();
		for (SampleProcess instance : fleet) {
			ids.add(instance.id());
		}
		checkedFrom = Awaitility.await("a fire time whose shards ran on all of " + ids).atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(500))
			.until(() -> firstFireTimeRunBy(Set.copyOf(ids)), (fireTime) -> fireTime > 0);
		Awaitility.await("the status page of " + fleet.get(0) + " names the three owners").atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> {
				String page = fleet.get(0).send("GET", "/").body();
				assertThat(page).contains("<table id=\"shards-DEFAULT.regions\">");
				for (String id : ids) {
					assertThat(page).contains("<td class=\"shard-owner\">" + id + "</td>");
				}
			});
		assertEachShardOnce(checkedFrom, lastFireTimeBefore(System.currentTimeMillis()) - PERIOD);
	}

	@Test
	@Order(20)
	void aRollingChangeOfTheGroupingRunsEachFireTimeAndShardOnce() throws Exception {
		assertThat(cli("{\"zk\":{\"leader\":{\"groups\":{\"new-grouping\":\"regions\"}}}}")).isZero();
		for (int i = 0; i < fleet.size(); i++) {
			SampleProcess old = fleet.get(i);
			old.stop();
			SampleProcess restarted = startInstance(old.name() + "-new").awaitReady(Duration.ofSeconds(90));
			fleet.set(i, restarted);
			String id = restarted.id();
			long since = System.currentTimeMillis();
			Awaitility.await(id + " runs shards with the new grouping").atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(500))
				.untilAsserted(() -> assertThat(journal()).anySatisfy((run) -> {
					assertThat(run.instance()).isEqualTo(id);
					assertThat(run.start()).isGreaterThanOrEqualTo(since);
				}));
			assertThat(job(restarted, "regions")).containsEntry("leaderGroup", "new-grouping");
			if (i < fleet.size() - 1) {
				assertThat(job(fleet.get(fleet.size() - 1), "regions")).as("an instance not restarted yet")
					.containsEntry("leaderGroup", "old-grouping");
			}
		}
		assertEachShardOnce(checkedFrom, lastFireTimeBefore(System.currentTimeMillis()) - PERIOD);
	}

	@Test
	@Order(30)
	void killingAShardOwnerMidRunReRunsItsShardOnceLateElsewhere() throws Exception {
		String leader = (String) job(fleet.get(0), "regions").get("leader");
		SampleProcess victim = fleet.stream().filter((instance) -> !id(instance).equals(leader)).findFirst().orElseThrow();
		killMidRun(victim);
		// three instances again: a new one joins while the shard is recovered
		SampleProcess joining = startInstance("shards-e").awaitReady(Duration.ofSeconds(90));
		fleet.add(joining);
		awaitReRuns();
	}

	@Test
	@Order(40)
	void killingTheLeaderOfTheJobsGroupMidRunReRunsItsShardAndTheNextLeaderDispatches() throws Exception {
		String leader = (String) job(fleet.get(0), "regions").get("leader");
		SampleProcess victim = fleet.stream().filter((instance) -> id(instance).equals(leader)).findFirst().orElseThrow();
		long killedAt = killMidRun(victim);
		awaitReRuns();
		Awaitility.await("fire times after the leader's kill dispatched by the next leader").atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(500))
			.untilAsserted(() -> assertThat(journal()).filteredOn((run) -> run.fireTime() > killedAt + PERIOD && run.end() != null)
				.extracting(Run::shard).contains(0, 1, 2, 3));
	}

	@Test
	@Order(50)
	void overTheWholeRunEachFireTimeRanEachShardToItsEndExactlyOnce() throws Exception {
		long to = lastFireTimeBefore(System.currentTimeMillis()) - PERIOD;
		assertEachShardOnce(checkedFrom, to);
		System.out.println("checked " + ((to - checkedFrom) / PERIOD + 1) + " fire times x 4 shards; re-runs: " + cutShort);
	}

	/** Kills {@code victim} with {@code -9} while it runs a shard; returns when. */
	private static long killMidRun(SampleProcess victim) throws Exception {
		String id = id(victim);
		Run running = Awaitility.await("a shard running on " + id).atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(100))
			.until(() -> journal().stream().filter((run) -> run.instance().equals(id) && run.end() == null
					&& System.currentTimeMillis() - run.start() < 800).findFirst().orElse(null), (run) -> run != null);
		victim.kill();
		long killedAt = System.currentTimeMillis();
		killed.add(id);
		kills.add(killedAt);
		fleet.remove(victim);
		// it may have been running another shard of the same fire time too: every run of it left open is cut short
		for (Run run : journal()) {
			if (run.instance().equals(id) && run.end() == null) {
				cutShort.put(run.fireTime() + "#" + run.shard(), killedAt);
			}
		}
		System.out.println("kill -9 of " + id + " while it ran shard " + running.shard() + " of fire time " + running.fireTime()
				+ "; cut short: " + cutShort.keySet());
		return killedAt;
	}

	/** Every shard cut short so far is re-run to its end, once, after its kill, by another instance, marked recovering. */
	private static void awaitReRuns() {
		Awaitility.await("the re-runs of " + cutShort.keySet()).atMost(SESSION_TIMEOUT.plusSeconds(40))
			.pollInterval(Duration.ofMillis(500))
			.untilAsserted(() -> {
				List<Run> journal = journal();
				cutShort.forEach((shard, killedAt) -> {
					List<Run> reRuns = journal.stream().filter((run) -> (run.fireTime() + "#" + run.shard()).equals(shard)
							&& run.recovering()).toList();
					assertThat(reRuns).as("re-runs of %s", shard).hasSize(1);
					Run reRun = reRuns.get(0);
					assertThat(reRun.end()).as("end of %s", reRun).isNotNull();
					assertThat(reRun.start()).as("late: after the kill").isGreaterThan(killedAt);
					// every member is watched by one other (the leader watches the last in line): crash detection ends
					// the dead session at once, so the re-run comes long before the session could have expired
					assertThat(reRun.start() - killedAt).as("ms from the kill to the re-run of %s", shard)
						.isLessThan(SESSION_TIMEOUT.toMillis() / 2);
					assertThat(journal.stream().filter((run) -> (run.fireTime() + "#" + run.shard()).equals(shard)
							&& run.end() == null && !run.recovering())).as("the run cut short of %s", shard)
						.noneMatch((cut) -> cut.instance().equals(reRun.instance()));
				});
			});
	}

	/**
	 * Each fire time of the cron in [from, to] ran each of its 4 shards to its end exactly once, with its
	 * parameter; any other run of it is one cut short by a kill -9 and, once, its re-run. Waits (bounded)
	 * for late runs to end.
	 */
	private static void assertEachShardOnce(long from, long to) {
		Awaitility.await("each fire time from " + from + " to " + to + " run, each shard once").atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(500))
			.untilAsserted(() -> {
				Map<Long, List<Run>> byFireTime = journal().stream()
					.filter((run) -> run.fireTime() >= from && run.fireTime() <= to)
					.collect(Collectors.groupingBy(Run::fireTime, TreeMap::new, Collectors.toList()));
				for (long fireTime = from; fireTime <= to; fireTime += PERIOD) {
					List<Run> runs = byFireTime.getOrDefault(fireTime, List.of());
					for (int shard = 0; shard < 4; shard++) {
						int index = shard;
						List<Run> ofShard = runs.stream().filter((run) -> run.shard() == index).toList();
						assertThat(ofShard.stream().filter((run) -> run.end() != null))
							.as("completed runs of fire time %d shard %d: %s", fireTime, shard, ofShard).hasSize(1);
						assertThat(ofShard).allSatisfy((run) -> {
							assertThat(run.total()).isEqualTo(4);
							assertThat(run.parameter()).isEqualTo(REGIONS.get(index));
						});
						List<Run> cut = ofShard.stream().filter((run) -> run.end() == null).toList();
						if (cutShort.containsKey(fireTime + "#" + shard)) {
							assertThat(cut).as("the run cut short").hasSize(1);
							assertThat(killed).contains(cut.get(0).instance());
						}
						else {
							assertThat(cut).as("runs of fire time %d shard %d that never ended", fireTime, shard).isEmpty();
						}
						long at = fireTime;
						if (kills.stream().noneMatch((kill) -> Math.abs(kill - at) < 3 * PERIOD)) {
							// a shard claimed by a killed owner just before it could journal its start is re-run too
							assertThat(ofShard).as("re-runs far from any kill").noneMatch(Run::recovering);
						}
					}
				}
			});
	}

	private static long firstFireTimeRunBy(Set<String> ids) throws Exception {
		Map<Long, Set<String>> byFireTime = journal().stream()
			.collect(Collectors.groupingBy(Run::fireTime, TreeMap::new, Collectors.mapping(Run::instance, Collectors.toSet())));
		return byFireTime.entrySet().stream().filter((e) -> e.getValue().equals(ids)).mapToLong(Map.Entry::getKey)
			.findFirst().orElse(-1);
	}

	private static long lastFireTimeBefore(long millis) {
		return millis / PERIOD * PERIOD;
	}

	private static String id(SampleProcess instance) {
		try {
			return instance.id();
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** The shard runs the instances journaled in the shared database, as {@code a} serves them. */
	private static List<Run> journal() throws Exception {
		List<Map<String, Object>> rows = a.getJson("/jobs/shard-runs", new TypeReference<>() { });
		return rows.stream().map((row) -> new Run((String) row.get("INSTANCE"), ((Number) row.get("FIRE_TIME")).longValue(),
				((Number) row.get("SHARD")).intValue(), ((Number) row.get("TOTAL")).intValue(), (String) row.get("PARAMETER"),
				Boolean.TRUE.equals(row.get("RECOVERING")), ((Number) row.get("STARTED_AT")).longValue(),
				(row.get("ENDED_AT") instanceof Number end) ? end.longValue() : null)).toList();
	}

	/** The job as {@code GET /actuator/zookeeper/jobs} on {@code instance} shows it. */
	@SuppressWarnings("unchecked")
	private static Map<String, Object> job(SampleProcess instance, String name) throws Exception {
		Map<String, Object> body = instance.getJson("/actuator/zookeeper/jobs", new TypeReference<>() { });
		return ((List<Map<String, Object>>) body.get("jobs")).stream().filter((job) -> name.equals(job.get("name")))
			.findFirst().orElseThrow(() -> new AssertionError("no job " + name + " in " + body));
	}

	/** Publishes {@code document} as context {@code sample} with the publishing tool's jar; returns its exit status. */
	private static int cli(String document) throws Exception {
		Process process = new ProcessBuilder(Paths.get(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
				TourCommands.cliJar(), "--connect", "127.0.0.1:" + zkPort, "config", "put", "sample", "-", "--message",
				"grouping of regions")
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

	/** One shard run as journaled: {@code end} is null for a run that has not ended (or never will: killed). */
	record Run(String instance, long fireTime, int shard, int total, String parameter, boolean recovering, long start,
			Long end) {
	}

}
