package dev.zkspring.test.shop;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.core.env.Environment;

import dev.zkspring.config.PlantStaleSnapshot;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.test.ZkConfig;
import dev.zkspring.test.ZkTestConfig;
import dev.zkspring.test.ZkTestConfig.Outcome;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The whole application against the kit's shared server, although application.yml names a port where
 * nothing listens and a stale snapshot for it waits in the home directory.
 */
@SpringBootTest
@ZkConfig(context = "shop", json = "{\"shop\":{\"greeting\":\"from-zk\",\"limits\":{\"max\":5}}}")
@ZkConfig(context = "application", location = "classpath:zk/application.json")
class ShopApplicationTests {

	@Autowired
	private ApplicationContext context;

	@Autowired
	private Environment environment;

	@Autowired
	private ZkTestConfig zkConfig;

	@Autowired
	private Greeter greeter;

	@Autowired
	private ShopLimits limits;

	@Autowired
	private Stock stock;

	@Autowired
	private ZkLeaderElection election;

	@Test
	void valuesComeFromTheZkConfigDocumentsNeverFromTheSnapshot() throws Exception {
		assertThat(this.greeter.greeting()).isEqualTo("from-zk");
		assertThat(this.limits.getMax()).isEqualTo(5);
		assertThat(this.environment.getProperty("shop.currency")).isEqualTo("EUR");
		assertThat(PlantStaleSnapshot.snapshotDirectory()).containsExactly(PlantStaleSnapshot.file());
	}

	@Test
	void putReturnsOnceARefreshScopeBeanHasTheNewValue() throws Exception {
		Outcome outcome = this.zkConfig.put("shop", "{\"shop\":{\"greeting\":\"changed\",\"limits\":{\"max\":6}}}");
		assertThat(outcome.applied()).isTrue();
		assertThat(this.greeter.greeting()).isEqualTo("changed");
		assertThat(this.limits.getMax()).isEqualTo(6);
		assertThat(this.zkConfig.get("shop")).contains("{\"shop\":{\"greeting\":\"changed\",\"limits\":{\"max\":6}}}");
	}

	@Test
	void putReturnsTheApplicationsRefusalWithItsReason() throws Exception {
		Outcome outcome = this.zkConfig.put("shop", "{\"shop\":{\"greeting\":\"refused\",\"limits\":{\"max\":\"lots\"}}}");
		assertThat(outcome.applied()).isFalse();
		assertThat(outcome.reason()).contains("shop.limits.max");
		assertThat(this.greeter.greeting()).isNotEqualTo("refused");
		Outcome malformed = this.zkConfig.put("shop", "{not json");
		assertThat(malformed.applied()).isFalse();
		assertThat(malformed.reason()).isNotBlank();
		assertThat(this.zkConfig.put("shop", "{\"shop\":{\"greeting\":\"from-zk\",\"limits\":{\"max\":5}}}").applied())
			.isTrue();
	}

	@Test
	void deleteRemovesTheDocumentsValues() throws Exception {
		assertThat(this.zkConfig.delete("application").applied()).isTrue();
		assertThat(this.environment.getProperty("shop.currency")).isNull();
		assertThat(this.zkConfig.get("application")).isEmpty();
		assertThat(this.zkConfig.put("application", "{\"shop\":{\"currency\":\"EUR\"}}").applied()).isTrue();
		assertThat(this.environment.getProperty("shop.currency")).isEqualTo("EUR");
	}

	@Test
	void aContextTheApplicationDoesNotReadIsRefusedAtOnce() {
		org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
			.isThrownBy(() -> this.zkConfig.put("billing", "{}"))
			.withMessageContaining("Context 'billing' (znode /config/billing) is not one this application reads");
	}

	@Test
	void aZkLockMethodRunsUnderItsLock() {
		assertThat(this.stock.reserve("sku-1")).contains("stock:sku-1");
	}

	@Test
	void theOnlyInstanceLeadsAtOnce() {
		await().atMost(Duration.ofSeconds(2)).until(this.election::isLeader);
		assertThat(this.stock.report()).isEqualTo("report");
	}

	@Test
	void theContextStartedWithinAFewSeconds() {
		assertThat(StartupTimes.of(this.context)).isLessThan(StartupTimes.BOUND);
	}

}
