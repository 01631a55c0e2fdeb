package dev.zkspring.apps.cli;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;

import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.test.ZkConfig;
import dev.zkspring.test.ZkTestConfig;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The same application with {@code spring.main.lazy-initialization=true}: a bean created after a change
 * has the changed value, one created before is rebound, and the lock works from a lazily created bean.
 */
@SpringBootTest(properties = "spring.main.lazy-initialization=true")
@ZkConfig(context = "command-line", json = "{\"greeting\":{\"text\":\"lazy\"}}")
class LazyInitializationTests {

	@Autowired
	ApplicationContext context;

	@Autowired
	ZkTestConfig zkConfig;

	@Test
	void refreshLocksAndNoElectionWork() throws Exception {
		Greeting greeting = this.context.getBean(Greeting.class);
		assertThat(greeting.getText()).isEqualTo("lazy");
		assertThat(this.zkConfig.put("command-line", "{\"greeting\":{\"text\":\"lazier\"}}").applied()).isTrue();
		assertThat(greeting.getText()).isEqualTo("lazier");
		assertThat(this.context.getBean(Reports.class).write("lazily")).isPositive();
		// nothing here needs a leader (no Quartz, no @LeaderOnly): no election runs
		assertThat(this.context.getBeanProvider(ZkLeaderElection.class).getIfAvailable()).isNull();
	}

}
