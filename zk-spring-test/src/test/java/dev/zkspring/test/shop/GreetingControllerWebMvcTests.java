package dev.zkspring.test.shop;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.ApplicationContext;
import org.springframework.test.web.servlet.MockMvc;

import dev.zkspring.config.PlantStaleSnapshot;
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
	void theSliceStartedWithinAFewSeconds() {
		assertThat(StartupTimes.of(this.context)).isLessThan(StartupTimes.BOUND);
	}

}
