package dev.zkspring.apps.jpa;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;

import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.lock.ZkLockTemplate;
import dev.zkspring.test.ZkConfig;
import dev.zkspring.test.ZkTestConfig;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shape Petclinic has: its context failed to start once the starter was added (a condition touched
 * Quartz's classes, which spring-context-support refers to). It starts, and what it can use works.
 */
@SpringBootTest
@ZkConfig(context = "jpa-cache", json = "{\"clinic\":{\"name\":\"from zookeeper\"}}")
class JpaCacheApplicationTests {

	@Autowired
	ApplicationContext context;

	@Autowired
	Registrations registrations;

	@Autowired
	ZkTestConfig zkConfig;

	@Test
	void startsWithLocksAndConfigurationAndWithoutAnElection() throws Exception {
		assertThat(this.context.getEnvironment().getProperty("clinic.name")).isEqualTo("from zookeeper");
		assertThat(this.registrations.register("george")).isTrue();
		assertThat(this.registrations.register("george")).isFalse();
		assertThat(this.registrations.count("george")).isEqualTo(1);
		assertThat(this.context.getBeanProvider(ZkLockTemplate.class).getIfAvailable()).isNotNull();
		// no Quartz and no @LeaderOnly: nothing needs a leader
		assertThat(this.context.getBeanProvider(ZkLeaderElection.class).getIfAvailable()).isNull();
		assertThat(this.zkConfig.put("jpa-cache", "{\"clinic\":{\"name\":\"changed\"}}").applied()).isTrue();
		assertThat(this.context.getEnvironment().getProperty("clinic.name")).isEqualTo("changed");
	}

}
