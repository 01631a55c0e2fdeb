package dev.zkspring.reliability;

import java.util.HexFormat;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/**
 * Server-side session expiry, as a partition longer than the session timeout would end it: a second
 * connection, straight to the ensemble, takes the session over with its id and password and closes it,
 * so the server ends the session and deletes its ephemeral nodes at once.
 */
final class Sessions {

	private Sessions() {
	}

	static boolean expire(String[] session, String connectString) {
		if (session == null || session.length != 2) {
			return false;
		}
		long id = Long.parseUnsignedLong(session[0], 16);
		byte[] password = HexFormat.of().parseHex(session[1]);
		CountDownLatch connected = new CountDownLatch(1);
		try {
			ZooKeeper twin = new ZooKeeper(connectString, 10_000, (event) -> {
				if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
					connected.countDown();
				}
			}, id, password);
			try {
				return connected.await(10, TimeUnit.SECONDS);
			}
			finally {
				twin.close();
			}
		}
		catch (Exception ex) {
			return false;
		}
	}

}
