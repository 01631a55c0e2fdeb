package dev.zkspring.apps.cli;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import dev.zkspring.test.ZkConfig;
import dev.zkspring.test.ZkTestConfig;

import static org.assertj.core.api.Assertions.assertThat;

/** The application as it is, with the test kit: configuration at startup and while running, and the lock. */
@SpringBootTest
@ZkConfig(context = "command-line", json = "{\"greeting\":{\"text\":\"from zookeeper\"}}")
class CommandLineApplicationTests {

	@Autowired
	Reports reports;

	@Autowired
	Greeting greeting;

	@Autowired
	ZkTestConfig zkConfig;

	@Test
	void theRunnerUsedZooKeepersValueUnderTheLock() {
		assertThat(this.reports.written()).anySatisfy((line) -> assertThat(line).matches("[1-9][0-9]* greeted with from zookeeper"));
	}

	@Test
	void aChangeIsRebound() throws Exception {
		assertThat(this.zkConfig.put("command-line", "{\"greeting\":{\"text\":\"changed\"}}").applied()).isTrue();
		assertThat(this.greeting.getText()).isEqualTo("changed");
		assertThat(this.reports.write("again")).isPositive();
	}

}
