package dev.zkspring.benchmarks;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.CuratorCache;

/**
 * The floors of the scale run: N bare {@link CuratorCache} listeners, each on a session of its own,
 * over one znode — what a change costs to reach N sessions with nothing of ours around it. Their
 * sessions also hold raw Curator's lock for the contention floor.
 */
final class ScaleFloor implements AutoCloseable {

	static final String PATH = "/scale-floor/value";

	private final Clients sessions;

	private final List<CuratorFramework> clients = new ArrayList<>();

	private final List<CuratorCache> caches = new ArrayList<>();

	private final AtomicReferenceArray<String> seen;

	ScaleFloor(String connectString, int n) throws Exception {
		this.sessions = new Clients(connectString);
		this.seen = new AtomicReferenceArray<>(n);
		for (int i = 0; i < n; i++) {
			CuratorFramework client = this.sessions.connect(connectString, 30_000);
			this.clients.add(client);
			CuratorCache cache = CuratorCache.build(client, "/scale-floor");
			int index = i;
			cache.listenable().addListener((type, before, after) -> {
				if (after != null && after.getPath().equals(PATH)) {
					this.seen.set(index, new String(after.getData(), StandardCharsets.UTF_8));
				}
			});
			cache.start();
			this.caches.add(cache);
		}
	}

	String value(int index) {
		return this.seen.get(index);
	}

	List<CuratorFramework> clients() {
		return this.clients;
	}

	@Override
	public void close() {
		this.caches.forEach(CuratorCache::close);
		this.sessions.close();
	}

}
