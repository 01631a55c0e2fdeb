package dev.zkspring.test.shop;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.ApplicationContext;
import org.springframework.test.web.servlet.MockMvc;

import dev.zkspring.config.PlantStaleSnapshot;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.lock.ZkLockTemplate;
import dev.zkspring.refresh.RefreshTargetRecorder;
import dev.zkspring.refresh.ZkRefresher;
import dev.zkspring.test.ZkConfig;
import dev.zkspring.test.ZkTestConfig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;

/** A web slice: it loads the configuration from the kit's server too, and has its ZkTestConfig. */
@WebMvcTest(GreetingController.class)
@ZkConfig(context = "shop", json = "{\"shop\":{\"greeting\":\"from-zk-in-a-slice\"}}")
class GreetingControllerWebMvcTests {

	@Autowired
	private MockMvc mvc;

	@Autowired
	private ApplicationContext context;

	@Autowired
	private ZkTestConfig zkConfig;

	@Test
	void thePageShowsTheGreetingFromZooKeeper() throws Exception {
		this.mvc.perform(get("/greeting")).andExpect(content().string("from-zk-in-a-slice"));
		assertThat(this.zkConfig.get("shop")).contains("{\"shop\":{\"greeting\":\"from-zk-in-a-slice\"}}");
		assertThat(PlantStaleSnapshot.snapshotDirectory()).containsExactly(PlantStaleSnapshot.file());
	}

	@Test
	void theSliceHasNoneOfZkSpringsAutoConfiguredBeansAsDocsTestingSays() {
		// docs/testing.md, Slices: no lock template (so @ZkLock runs unlocked), no election, no rebinding
		assertThat(this.context.getBeanNamesForType(ZkLockTemplate.class)).isEmpty();
		assertThat(this.context.getBeanNamesForType(ZkLeaderElection.class)).isEmpty();
		// the config center's client is there: it loaded the configuration
		assertThat(this.context.getBeanNamesForType(CuratorFramework.class)).hasSize(1);
		assertThat(this.context.getBeanNamesForType(ZkRefresher.class)).isEmpty();
		assertThat(this.context.getBeanNamesForType(RefreshTargetRecorder.class)).isEmpty();
	}

	@Test
	void theSliceStartedWithinAFewSeconds() {
		assertThat(StartupTimes.of(this.context)).isLessThan(StartupTimes.BOUND);
	}

}
