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

import dev.zkspring.config.ConfigRevisions;
import dev.zkspring.fleet.ZkFleet;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.lock.ZkHeldLock;
import dev.zkspring.lock.ZkLockTemplate;

/**
 * The read-only {@code zookeeper} actuator endpoint: the config center's contexts and which source
 * wins each of their keys (values masked unless {@code show-values} allows them), the locks this JVM
 * holds, and the leadership; {@code /actuator/zookeeper/fleet} lists every live instance of the application.
 */
@Endpoint(id = "zookeeper")
public final class ZkEndpoint {

	private final CuratorFramework client;

	private final ConfigSources configSources;

	private final @Nullable ZkConfigActivity configActivity;

	private final List<ZkLockTemplate> lockTemplates;

	private final Map<ZkLeaderElection, LeadershipSince> elections = new LinkedHashMap<>();

	private final Show showValues;

	private final Set<String> roles;

	private final @Nullable ZkFleet fleet;

	private final ConfigRevisions revisions = new ConfigRevisions();

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
		if (!"fleet".equals(section) || this.fleet == null) {
			return null;
		}
		Map<String, Object> body = new LinkedHashMap<>();
		body.putAll(this.fleet.view());
		return body;
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
