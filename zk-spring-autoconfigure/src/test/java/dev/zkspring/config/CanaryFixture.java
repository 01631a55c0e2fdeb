package dev.zkspring.config;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;

/** Writes canary nodes directly with Curator, exactly as the publishing tool does ({@link ConfigLayout}). */
final class CanaryFixture {

	static final String ROOT = "/config";

	/** Where the canary nodes and history live, beside the root: clean it before the root. */
	static final String META = ConfigLayout.metaRoot(ROOT);

	private CanaryFixture() {
	}

	static String node(String context) {
		return ConfigLayout.canaryNode(ROOT, context);
	}

	/** Start (or replace) the canary of a context. */
	static void start(CuratorFramework writer, String context, long revision, List<String> instances, String document)
			throws Exception {
		ConfigCanary canary = new ConfigCanary(revision, instances, 0, System.currentTimeMillis(), "test", "canary test",
				document);
		ConfigTestSupport.write(writer, node(context), canary.toJson());
	}

	/** Write anything at the canary node, as anyone with zkCli could. */
	static void writeRaw(CuratorFramework writer, String context, String content) throws Exception {
		ConfigTestSupport.write(writer, node(context), content.getBytes(StandardCharsets.UTF_8));
	}

	/** End the canary (abort or promote): delete its node. */
	static void end(CuratorFramework writer, String context) throws Exception {
		writer.delete().forPath(node(context));
	}

}
