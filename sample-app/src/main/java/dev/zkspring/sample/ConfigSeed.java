package dev.zkspring.sample;

import java.nio.charset.StandardCharsets;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;

import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * Creates this application's configuration document, empty, when it is missing, so the README's
 * walk-through only ever sets it and every command of it can be run twice. A demo's convenience: an
 * application normally leaves its documents to whoever publishes them.
 */
@Component
class ConfigSeed implements ApplicationRunner {

	private static final Log logger = LogFactory.getLog(ConfigSeed.class);

	private final CuratorFramework client;

	private final String znode;

	ConfigSeed(CuratorFramework client, Environment environment) {
		this.client = client;
		this.znode = environment.getProperty("zk.config.root", "/config") + "/"
				+ environment.getProperty("zk.config.name", environment.getProperty("spring.application.name", "sample"));
	}

	@Override
	public void run(ApplicationArguments args) {
		if (!this.client.getZookeeperClient().isConnected()) {
			return; // started from a snapshot or without ZooKeeper: the walk-through needs it anyway
		}
		try {
			this.client.create().creatingParentsIfNeeded().forPath(this.znode, "{}".getBytes(StandardCharsets.UTF_8));
			logger.info("Created an empty configuration document at " + this.znode + " (zk set it to change values)");
		}
		catch (KeeperException.NodeExistsException ex) {
			// there already: an earlier start, another instance, or an operator created it
		}
		catch (Exception ex) {
			logger.info("Could not create " + this.znode + " (" + ex.getClass().getSimpleName()
					+ "); create it with zk create " + this.znode + " '{}'");
		}
	}

}
