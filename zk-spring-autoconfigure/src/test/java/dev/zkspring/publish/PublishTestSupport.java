package dev.zkspring.publish;

import java.util.List;

import org.apache.curator.framework.CuratorFramework;

/** What the publishing tests share. */
final class PublishTestSupport {

	private PublishTestSupport() {
	}

	/** Every node under the config and meta roots, to show that nothing was written. */
	static List<String> tree(CuratorFramework client) throws Exception {
		List<String> nodes = new java.util.ArrayList<>();
		for (String path : List.of("/config", "/config.meta")) {
			walk(client, path, nodes);
		}
		return nodes;
	}

	private static void walk(CuratorFramework client, String path, List<String> nodes) throws Exception {
		if (client.checkExists().forPath(path) == null) {
			return;
		}
		nodes.add(path);
		for (String child : client.getChildren().forPath(path)) {
			walk(client, path + "/" + child, nodes);
		}
	}

}
