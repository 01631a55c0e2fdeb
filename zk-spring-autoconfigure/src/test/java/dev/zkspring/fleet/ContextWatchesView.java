package dev.zkspring.fleet;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

import org.apache.zookeeper.ZooKeeper;

/** The watches a client holds, as its ZooKeeper handle lists them (protected there: read for tests only). */
final class ContextWatchesView {

	private ContextWatchesView() {
	}

	/** Paths with a persistent (non-recursive) watch. */
	static List<String> persistent(ZooKeeper zooKeeper) throws ReflectiveOperationException {
		return list(zooKeeper, "getPersistentWatches");
	}

	/** Paths with a one-shot data, exists or child watch. */
	static List<String> oneShot(ZooKeeper zooKeeper) throws ReflectiveOperationException {
		List<String> paths = new ArrayList<>(list(zooKeeper, "getDataWatches"));
		paths.addAll(list(zooKeeper, "getExistWatches"));
		paths.addAll(list(zooKeeper, "getChildWatches"));
		return paths;
	}

	@SuppressWarnings("unchecked")
	private static List<String> list(ZooKeeper zooKeeper, String name) throws ReflectiveOperationException {
		Method method = ZooKeeper.class.getDeclaredMethod(name);
		method.setAccessible(true);
		return (List<String>) method.invoke(zooKeeper);
	}

}
