package dev.zkspring.sample;

import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.curator.framework.CuratorFramework;

import org.springframework.core.env.Environment;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** What this instance is connected to, for a person checking the demo runs. */
@RestController
class StatusController {

	private final CuratorFramework client;

	private final Environment environment;

	StatusController(CuratorFramework client, Environment environment) {
		this.client = client;
		this.environment = environment;
	}

	@GetMapping("/status")
	Map<String, Object> status() throws Exception {
		Map<String, Object> status = new LinkedHashMap<>();
		status.put("instance", this.environment.getProperty("server.port"));
		status.put("zookeeper", this.client.getZookeeperClient().getCurrentConnectionString());
		status.put("connected", this.client.getZookeeperClient().isConnected());
		status.put("session", "0x" + Long.toHexString(this.client.getZookeeperClient().getZooKeeper().getSessionId()));
		return status;
	}

}
