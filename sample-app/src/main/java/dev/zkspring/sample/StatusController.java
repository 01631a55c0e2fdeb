package dev.zkspring.sample;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.curator.framework.CuratorFramework;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.zkspring.config.ZkConfigStatus;
import dev.zkspring.leader.ZkLeaderElection;

/** What this instance sees: connection, leadership, live configuration, stock and the last job runs. */
@RestController
class StatusController {

	private final CuratorFramework client;

	private final ObjectProvider<ZkLeaderElection> election;

	private final ObjectProvider<ZkConfigStatus> configStatus;

	private final Instance instance;

	private final Greeter greeter;

	private final ShopProperties shop;

	private final StockStore store;

	StatusController(CuratorFramework client, ObjectProvider<ZkLeaderElection> election,
			ObjectProvider<ZkConfigStatus> configStatus, Instance instance, Greeter greeter, ShopProperties shop,
			StockStore store) {
		this.client = client;
		this.election = election;
		this.configStatus = configStatus;
		this.instance = instance;
		this.greeter = greeter;
		this.shop = shop;
		this.store = store;
	}

	@GetMapping("/status")
	Map<String, Object> status() throws Exception {
		Map<String, Object> status = new LinkedHashMap<>();
		status.put("instance", this.instance.id());
		status.put("zookeeper", this.client.getZookeeperClient().getCurrentConnectionString());
		status.put("connected", this.client.getZookeeperClient().isConnected());
		status.put("session", "0x" + Long.toHexString(this.client.getZookeeperClient().getZooKeeper().getSessionId()));
		ZkConfigStatus config = this.configStatus.getIfAvailable();
		status.put("configSource", (config != null) ? config.getSource().name() : "none");
		ZkLeaderElection election = this.election.getIfAvailable();
		if (election != null) {
			status.put("leader", election.leaderId().orElse(null));
			status.put("isLeader", election.isLeader());
			status.put("epoch", election.epoch());
			status.put("participants", election.participants());
		}
		else {
			status.put("leader", null);
			status.put("isLeader", false);
			status.put("participants", List.of());
		}
		status.put("config", ConfigController.values(this.greeter, this.shop));
		status.put("stock", this.store.all());
		status.put("jobRuns", this.store.lastJobRuns(10));
		return status;
	}

	@GetMapping("/jobs/runs")
	List<Map<String, Object>> jobRuns() {
		return this.store.allJobRuns();
	}

}
