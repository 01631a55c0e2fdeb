package dev.zkspring.sample;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.curator.framework.CuratorFramework;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.zkspring.config.ZkConfigStatus;
import dev.zkspring.fleet.ZkFleet;
import dev.zkspring.jobs.ZkJobs;
import dev.zkspring.leader.ZkLeaderElection;

/**
 * What this instance sees: connection, leadership, live configuration and where each value comes from,
 * the last refusal, the fleet, stock and the last job runs. Nothing here waits on ZooKeeper while the
 * client is disconnected: the leader and participants are then the last ones known, marked as such.
 */
@RestController
class StatusController {

	private final CuratorFramework client;

	private final ObjectProvider<ZkLeaderElection> election;

	private final ObjectProvider<ZkConfigStatus> configStatus;

	private final ObjectProvider<ZkFleet> fleet;

	private final Instance instance;

	private final Greeter greeter;

	private final ShopProperties shop;

	private final StockStore store;

	private final ValueSources sources;

	private final LastRefusal lastRefusal;

	private final ObjectProvider<ZkJobs> jobs;

	private volatile List<Map<String, Object>> lastJobs = List.of();

	private volatile Map<String, Object> lastGroup = Map.of();

	StatusController(CuratorFramework client, ObjectProvider<ZkLeaderElection> election,
			ObjectProvider<ZkConfigStatus> configStatus, ObjectProvider<ZkFleet> fleet, Instance instance,
			Greeter greeter, ShopProperties shop, StockStore store, ValueSources sources, LastRefusal lastRefusal,
			ObjectProvider<ZkJobs> jobs) {
		this.jobs = jobs;
		this.client = client;
		this.election = election;
		this.configStatus = configStatus;
		this.fleet = fleet;
		this.instance = instance;
		this.greeter = greeter;
		this.shop = shop;
		this.store = store;
		this.sources = sources;
		this.lastRefusal = lastRefusal;
	}

	@GetMapping("/status")
	Map<String, Object> status() {
		boolean connected = this.client.getZookeeperClient().isConnected();
		Map<String, Object> status = new LinkedHashMap<>();
		status.put("instance", this.instance.id());
		status.put("zookeeper", this.client.getZookeeperClient().getCurrentConnectionString());
		status.put("connected", connected);
		status.put("session", session());
		ZkConfigStatus config = this.configStatus.getIfAvailable();
		status.put("configSource", (config != null) ? config.getSource().name() : "none");
		ZkLeaderElection election = this.election.getIfAvailable();
		if (election != null) {
			status.putAll(group(election, connected));
			status.put("isLeader", election.isLeader());
			status.put("epoch", election.epoch());
		}
		else {
			status.put("leader", null);
			status.put("isLeader", false);
			status.put("participants", List.of());
		}
		Map<String, Object> values = ConfigController.values(this.greeter, this.shop);
		status.put("config", values);
		Map<String, Object> sources = new LinkedHashMap<>();
		values.keySet().forEach((key) -> sources.put(key, this.sources.sourceOf(key)));
		status.put("configSources", sources);
		status.put("lastRefusal", this.lastRefusal.get());
		ZkFleet fleet = this.fleet.getIfAvailable();
		status.put("fleet", (fleet != null) ? fleet.instances() : List.of());
		status.put("stock", this.store.all());
		status.put("jobRuns", this.store.lastJobRuns(10));
		ZkJobs jobs = this.jobs.getIfAvailable();
		if (jobs != null && connected) {
			// read from ZooKeeper: while disconnected, the last ones seen
			this.lastJobs = jobs.describe();
		}
		status.put("jobs", this.lastJobs);
		return status;
	}

	/** The leader and participants: asked of ZooKeeper while connected, else the last ones known. */
	private Map<String, Object> group(ZkLeaderElection election, boolean connected) {
		if (connected) {
			try {
				Map<String, Object> group = new LinkedHashMap<>();
				group.put("leader", election.leaderId().orElse(null));
				group.put("participants", election.participants());
				group.put("leadershipKnown", "now");
				this.lastGroup = group;
				return group;
			}
			catch (IllegalStateException ex) {
				// the connection went while asking: fall back to the last answer
			}
		}
		Map<String, Object> last = new LinkedHashMap<>(this.lastGroup);
		last.putIfAbsent("leader", null);
		last.putIfAbsent("participants", List.of());
		last.put("leadershipKnown", "last known (not connected)");
		return last;
	}

	private String session() {
		try {
			return "0x" + Long.toHexString(this.client.getZookeeperClient().getZooKeeper().getSessionId());
		}
		catch (Exception ex) {
			return "unknown (" + ex.getClass().getSimpleName() + ")";
		}
	}

	@GetMapping("/jobs/runs")
	List<Map<String, Object>> jobRuns() {
		return this.store.allJobRuns();
	}

}
