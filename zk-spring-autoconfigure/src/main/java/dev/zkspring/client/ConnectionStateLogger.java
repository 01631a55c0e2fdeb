package dev.zkspring.client;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;

/** One log line per connection-state change, so an operator can follow the client in the log. */
final class ConnectionStateLogger implements ConnectionStateListener {

	private static final Log logger = LogFactory.getLog(ZkClientFactory.class);

	private final String connectString;

	ConnectionStateLogger(String connectString) {
		this.connectString = connectString;
	}

	@Override
	public void stateChanged(CuratorFramework client, ConnectionState newState) {
		String session = SessionIds.format(SessionIds.current(client));
		switch (newState) {
			case CONNECTED -> logger.info("Connected to ZooKeeper at " + this.connectString + " (session " + session + ")");
			case RECONNECTED -> logger.info("Reconnected to ZooKeeper at " + this.connectString + " (session " + session + ")");
			case SUSPENDED -> logger.warn("Connection to ZooKeeper at " + this.connectString
					+ " suspended; locks and leadership are in doubt until it reconnects");
			case LOST -> logger.warn("ZooKeeper session to " + this.connectString
					+ " lost; its ephemeral nodes (locks, leadership) are gone");
			case READ_ONLY -> logger.warn("Connected to ZooKeeper at " + this.connectString + " in read-only mode");
		}
	}

}
