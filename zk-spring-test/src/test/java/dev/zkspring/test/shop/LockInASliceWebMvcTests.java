package dev.zkspring.test.shop;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.autoconfigure.ZkLockAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What docs/testing.md offers a slice that needs a lock: importing the two auto-configurations gives it
 * the lock template, so the {@code @ZkLock} method really takes the lock on the kit's server.
 */
@WebMvcTest(GreetingController.class)
@ImportAutoConfiguration({ ZkAutoConfiguration.class, ZkLockAutoConfiguration.class })
@Import(Stock.class)
class LockInASliceWebMvcTests {

	@Autowired
	private Stock stock;

	@Test
	void theImportedLockIsTakenOnTheKitsServer() {
		assertThat(this.stock.reserve("sku-1")).contains("stock:sku-1");
	}

}
