package dev.zkspring.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * The side of the A/B benchmark that runs inside an {@link IsolatedZkSpring} class loader: it opens
 * {@code @ZkLock} applications on clients of its own, with whichever zk-spring that loader holds.
 * Public and typed with JDK types only, since the caller sees it from another class loader.
 */
public final class AbSide {

	private static final List<LockLibrary.Locks> opened = new ArrayList<>();

	private static Clients clients;

	private AbSide() {
	}

	/** Open one {@code @ZkLock} application per client; each operation acquires and releases the key. */
	public static synchronized List<Callable<Object>> open(String connectString, int clientCount, String key)
			throws Exception {
		if (clients == null) {
			clients = new Clients(connectString);
		}
		List<Callable<Object>> ops = new ArrayList<>();
		for (int i = 0; i < clientCount; i++) {
			LockLibrary.Locks locks = ZkSpringLocks.ANNOTATION.open(clients.connect());
			opened.add(locks);
			ops.add(() -> {
				locks.acquireRelease(key);
				return null;
			});
		}
		return ops;
	}

	/** Close every application, then every client, this side opened. */
	public static synchronized void closeAll() throws Exception {
		for (LockLibrary.Locks locks : opened) {
			locks.close();
		}
		opened.clear();
		if (clients != null) {
			clients.close();
		}
	}

}
