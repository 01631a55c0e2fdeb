package dev.zkspring.docs.recipes;

import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.barriers.DistributedDoubleBarrier;

import org.springframework.stereotype.Component;

// docs/curator-recipes.md, a double barrier (docs check: DocsSnippetsTests; CuratorRecipesIntegrationTests).

// tag::barrier[]
@Component
class NightlyBatch {

	private final CuratorFramework client;   // the starter's client: its session, namespace and ACLs

	NightlyBatch(CuratorFramework client) {
		this.client = client;
	}

	/**
	 * Runs this instance's part of the batch once {@code instances} instances have entered, and returns
	 * once all of them have finished; {@code false} when they did not all arrive (or leave) in time.
	 */
	boolean runTogether(int instances, Runnable part) throws Exception {
		DistributedDoubleBarrier barrier = new DistributedDoubleBarrier(this.client, "/barriers/nightly-batch",
				instances);
		if (!barrier.enter(30, TimeUnit.SECONDS)) {
			return false;
		}
		try {
			part.run();
		}
		finally {
			barrier.leave(30, TimeUnit.SECONDS);
		}
		return true;
	}

}
// end::barrier[]
