package dev.zkspring.test.shop;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;

import dev.zkspring.config.PlantStaleSnapshot;
import dev.zkspring.test.ZkConfig;
import dev.zkspring.test.ZkTestConfig;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code spring.config.import=zk:} reads before any bean exists, while Boot reads its files: it too
 * uses the kit's server and sees the seeded documents, under a root the files set.
 */
@SpringBootTest(properties = { "spring.config.import=zk:", "zk.config.root=/imported" })
@ZkConfig(context = "shop", json = "{\"shop\":{\"greeting\":\"imported-from-zk\"}}")
class ImportingApplicationTests {

	@Autowired
	private ApplicationContext context;

	@Autowired
	private Greeter greeter;

	@Autowired
	private ZkTestConfig zkConfig;

	@Test
	void theImportLoadsTheSeededDocumentFromTheKitsServer() throws Exception {
		assertThat(this.greeter.greeting()).isEqualTo("imported-from-zk");
		assertThat(this.zkConfig.put("shop", "{\"shop\":{\"greeting\":\"changed\"}}").applied()).isTrue();
		assertThat(this.greeter.greeting()).isEqualTo("changed");
		assertThat(PlantStaleSnapshot.snapshotDirectory()).containsExactly(PlantStaleSnapshot.file());
	}

	@Test
	void theContextStartedWithinAFewSeconds() {
		assertThat(StartupTimes.of(this.context)).isLessThan(StartupTimes.BOUND);
	}

}
