package dev.zkspring.actuate;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

import dev.zkspring.config.ConfigRevisions;
import dev.zkspring.fleet.ZkFleet;
import dev.zkspring.jobs.ZkJobs;
import dev.zkspring.jobs.ZkShards;
import dev.zkspring.leader.JobAnswer;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.lock.ZkHeldLock;
import dev.zkspring.lock.ZkLockTemplate;

/**
 * The {@code zookeeper} actuator endpoint: the config center's contexts and which source
 * wins each of their keys (values masked unless {@code show-values} allows them), the locks this JVM
 * holds, and the leadership; {@code /actuator/zookeeper/fleet} lists every live instance of the application,
 * {@code /actuator/zookeeper/jobs} the leader-gated jobs with their last runs, and a write to
 * {@code /actuator/zookeeper/jobs/{group}/{name}} has the leader run, pause or resume one.
 */
@Endpoint(id = "zookeeper")
public final class ZkEndpoint {

	/** Fire times of a sharded job shown with their shards' runs. */
	private static final int SHARD_FIRES_SHOWN = 5;

	private final CuratorFramework client;

	private final ConfigSources configSources;

	private final @Nullable ZkConfigActivity configActivity;

	private final List<ZkLockTemplate> lockTemplates;

	private final Map<ZkLeaderElection, LeadershipSince> elections = new LinkedHashMap<>();

	private final Show showValues;

	private final Set<String> roles;

	private final @Nullable ZkFleet fleet;

	private final @Nullable ZkJobs jobs;

	private final ConfigRevisions revisions = new ConfigRevisions();

	/** Sharded jobs, shown in the {@code jobs} section; {@code null} without them. */
	private volatile @Nullable ZkShards shards;

	/**
	 * Create the endpoint.
	 * @param client the application's client
	 * @param configSources reads the config center's keys and their winning sources
	 * @param configActivity what the config center did, {@code null} without it
	 * @param lockTemplates the application's lock templates
	 * @param elections the application's leader elections
	 * @param showValues when configuration values are shown unmasked
	 * @param roles the roles that may see values with {@link Show#WHEN_AUTHORIZED}
	 */
	public ZkEndpoint(CuratorFramework client, ConfigSources configSources, @Nullable ZkConfigActivity configActivity,
			List<ZkLockTemplate> lockTemplates, List<ZkLeaderElection> elections, Show showValues, Set<String> roles) {
		this(client, configSources, configActivity, lockTemplates, elections, showValues, roles, null);
	}

	/**
	 * Create the endpoint with the fleet view.
	 * @param client the application's client
	 * @param configSources reads the config center's keys and their winning sources
	 * @param configActivity what the config center did, {@code null} without it
	 * @param lockTemplates the application's lock templates
	 * @param elections the application's leader elections
	 * @param showValues when configuration values are shown unmasked
	 * @param roles the roles that may see values with {@link Show#WHEN_AUTHORIZED}
	 * @param fleet the fleet view, {@code null} without it
	 */
	public ZkEndpoint(CuratorFramework client, ConfigSources configSources, @Nullable ZkConfigActivity configActivity,
			List<ZkLockTemplate> lockTemplates, List<ZkLeaderElection> elections, Show showValues, Set<String> roles,
			@Nullable ZkFleet fleet) {
		this(client, configSources, configActivity, lockTemplates, elections, showValues, roles, fleet, null);
	}

	/**
	 * Create the endpoint with the fleet view and the job operations.
	 * @param client the application's client
	 * @param configSources reads the config center's keys and their winning sources
	 * @param configActivity what the config center did, {@code null} without it
	 * @param lockTemplates the application's lock templates
	 * @param elections the application's leader elections
	 * @param showValues when configuration values are shown unmasked
	 * @param roles the roles that may see values with {@link Show#WHEN_AUTHORIZED}
	 * @param fleet the fleet view, {@code null} without it
	 * @param jobs the leader-gated jobs' operations, {@code null} without them
	 */
	public ZkEndpoint(CuratorFramework client, ConfigSources configSources, @Nullable ZkConfigActivity configActivity,
			List<ZkLockTemplate> lockTemplates, List<ZkLeaderElection> elections, Show showValues, Set<String> roles,
			@Nullable ZkFleet fleet, @Nullable ZkJobs jobs) {
		this.jobs = jobs;
		this.fleet = fleet;
		this.client = client;
		this.configSources = configSources;
		this.configActivity = configActivity;
		this.lockTemplates = List.copyOf(lockTemplates);
		for (ZkLeaderElection election : elections) {
			LeadershipSince since = new LeadershipSince();
			election.addListener(since);
			this.elections.put(election, since);
		}
		this.showValues = showValues;
		this.roles = Set.copyOf(roles);
	}

	/**
	 * Show the shards of sharded jobs in the {@code jobs} section: which instance owns each shard, and each
	 * shard's last runs.
	 * @param shards the sharded jobs, {@code null} for none
	 */
	public void setShards(@Nullable ZkShards shards) {
		this.shards = shards;
	}

	/** Everything the endpoint shows, read now. */
	@ReadOperation
	public Map<String, Object> zookeeper(SecurityContext securityContext) {
		boolean connected = this.client.getZookeeperClient().isConnected();
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("connected", connected);
		Map<String, Object> config = new LinkedHashMap<>();
		List<Map<String, Object>> contexts = (this.configActivity != null) ? this.configActivity.describeContexts()
				: List.of();
		if (connected) {
			// the published revision beside each node version, read once per version from the history head
			contexts.forEach((context) -> context.putAll(this.revisions.describe(this.client,
					(String) context.get("znode"), (Integer) context.get("version"))));
		}
		config.put("contexts", contexts);
		config.put("keys", this.configSources.describeKeys(this.showValues.isShown(securityContext, this.roles)));
		body.put("config", config);
		body.put("locks", locks());
		Map<String, Object> leadership = new LinkedHashMap<>();
		this.elections.forEach((election, since) -> {
			Map<String, Object> group = Leadership.describe(election, true);
			Instant leadingSince = since.get();
			if (leadingSince != null && election.isLeader()) {
				group.put("since", leadingSince.toString());
			}
			leadership.put(election.latchPath(), group);
		});
		body.put("leadership", leadership);
		return body;
	}

	/**
	 * One section: {@code fleet} lists every live instance of this application (from their fleet nodes).
	 * @param section the section's name
	 * @return the section, or {@code null} (404) for an unknown one or without the fleet view
	 */
	@ReadOperation
	public @Nullable Map<String, Object> section(@Selector String section) {
		Map<String, Object> body = new LinkedHashMap<>();
		if ("jobs".equals(section) && this.jobs != null) {
			body.put("jobs", withShards(this.jobs.describe()));
			return body;
		}
		if (!"fleet".equals(section) || this.fleet == null) {
			return null;
		}
		body.putAll(this.fleet.view());
		return body;
	}

	/** Each sharded job's view gets its {@code shards}: the owners in force and the last fire times' runs. */
	private List<Map<String, Object>> withShards(List<Map<String, Object>> jobs) {
		ZkShards sharded = this.shards;
		if (sharded == null) {
			return jobs;
		}
		Map<String, Map<String, Object>> byJob = new LinkedHashMap<>();
		sharded.describe(SHARD_FIRES_SHOWN).forEach((view) -> byJob.put(String.valueOf(view.get("job")), view));
		List<Map<String, Object>> shown = new ArrayList<>();
		for (Map<String, Object> job : jobs) {
			Map<String, Object> view = new LinkedHashMap<>(job);
			Map<String, Object> shards = byJob.get(job.get("group") + "." + job.get("name"));
			if (shards != null) {
				Map<String, Object> section = new LinkedHashMap<>(shards);
				section.remove("job");
				view.put("shards", section);
			}
			shown.add(view);
		}
		return shown;
	}

	/**
	 * Have the leader run, pause or resume a leader-gated job ({@code POST /actuator/zookeeper/jobs/{group}/{name}}
	 * with {@code {"action":"run"}}), from any instance; waits (bounded) for the leader's answer.
	 * @param section {@code jobs}
	 * @param group the job's group, {@code DEFAULT} for Quartz's default
	 * @param name the job's name
	 * @param action {@code run}, {@code pause} or {@code resume}
	 * @return the answer, with 200 when done or started, 404 for an unknown job, 400 for a bad action,
	 * 409 when refused, 503 without a leader, 504 when the leader did not answer in time
	 */
	@WriteOperation
	public WebEndpointResponse<Map<String, Object>> job(@Selector String section, @Selector String group,
			@Selector String name, String action) {
		if (!"jobs".equals(section) || this.jobs == null) {
			return new WebEndpointResponse<>(WebEndpointResponse.STATUS_NOT_FOUND);
		}
		JobAnswer answer = this.jobs.request(group, name, action);
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("status", answer.status().name());
		body.put("message", answer.message());
		int status = switch (answer.status()) {
			case DONE, STARTED -> WebEndpointResponse.STATUS_OK;
			case UNKNOWN_JOB -> WebEndpointResponse.STATUS_NOT_FOUND;
			case REFUSED -> action.matches("run|pause|resume") ? 409 : WebEndpointResponse.STATUS_BAD_REQUEST;
			case NO_LEADER -> WebEndpointResponse.STATUS_SERVICE_UNAVAILABLE;
			case TIMEOUT -> 504;
		};
		return new WebEndpointResponse<>(body, status);
	}

	private List<Map<String, Object>> locks() {
		List<Map<String, Object>> locks = new ArrayList<>();
		for (ZkLockTemplate template : this.lockTemplates) {
			for (ZkHeldLock held : template.getHeldLocks()) {
				Map<String, Object> lock = new LinkedHashMap<>();
				lock.put("key", held.key());
				lock.put("mode", held.mode().name());
				if (held.fencingToken() != null) {
					lock.put("token", held.fencingToken());
				}
				lock.put("since", held.since().toString());
				lock.put("waitingThreads", held.waitingThreads());
				locks.add(lock);
			}
		}
		return locks;
	}

}
