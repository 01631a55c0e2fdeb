package dev.zkspring.lock;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import dev.zkspring.test.ZkAppFixture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code @ZkLock} and {@code @Transactional} on the same method: the lock wraps the transaction, so the
 * commit happens while the lock is still held and the next holder reads committed data.
 */
class ZkLockTransactionIntegrationTests {

	private static final String URL = "jdbc:h2:mem:zklock-tx;DB_CLOSE_DELAY=-1";

	private static final int INCREMENTS = 60;

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server(LockApps::runner)
		.with((runner) -> runner.withUserConfiguration(LedgerConfiguration.class));

	@Test
	void commitHappensBeforeReleaseSoNoIncrementIsLostAcrossJvms() {
		JdbcTemplate jdbc = new JdbcTemplate(new DriverManagerDataSource(URL));
		jdbc.execute("create table if not exists counter (id int primary key, v int)");
		jdbc.update("merge into counter key (id) values (1, 0)");
		app.runner().run((first) -> app.runner().run((second) -> {
			List<Ledger> ledgers = List.of(first.getBean(Ledger.class), second.getBean(Ledger.class));
			AtomicInteger remaining = new AtomicInteger(INCREMENTS);
			ExecutorService executor = Executors.newFixedThreadPool(4);
			try {
				List<Future<?>> futures = new ArrayList<>();
				for (int t = 0; t < 4; t++) {
					Ledger ledger = ledgers.get(t % 2);
					futures.add(executor.submit(() -> {
						while (remaining.getAndDecrement() > 0) {
							ledger.increment();
						}
						return null;
					}));
				}
				for (Future<?> future : futures) {
					future.get(60, TimeUnit.SECONDS);
				}
			}
			finally {
				executor.shutdownNow();
			}
			assertThat(jdbc.queryForObject("select v from counter where id = 1", Integer.class)).isEqualTo(INCREMENTS);
			for (ConfigurableApplicationContext context : List.of(first, second)) {
				LedgerConfiguration configuration = context.getBean(LedgerConfiguration.class);
				assertThat(configuration.lockHeldAtCommit).isNotEmpty().containsOnly(true);
			}
		}));
	}

	@Configuration(proxyBeanMethods = false)
	@EnableTransactionManagement
	static class LedgerConfiguration {

		final List<Boolean> lockHeldAtCommit = new CopyOnWriteArrayList<>();

		@Bean
		DataSource dataSource() {
			return new DriverManagerDataSource(URL);
		}

		@Bean
		PlatformTransactionManager transactionManager(DataSource dataSource) {
			return new DataSourceTransactionManager(dataSource);
		}

		@Bean
		Ledger ledger(DataSource dataSource) {
			return new Ledger(new JdbcTemplate(dataSource), this.lockHeldAtCommit);
		}

	}

	static class Ledger {

		private final JdbcTemplate jdbc;

		private final List<Boolean> lockHeldAtCommit;

		Ledger(JdbcTemplate jdbc, List<Boolean> lockHeldAtCommit) {
			this.jdbc = jdbc;
			this.lockHeldAtCommit = lockHeldAtCommit;
		}

		@ZkLock(key = "'ledger'", waitTime = "20s")
		@Transactional
		public void increment() {
			assertThat(TransactionSynchronizationManager.isActualTransactionActive()).isTrue();
			ZkLockContext lock = ZkLockContext.current();
			TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {

				@Override
				public void afterCompletion(int status) {
					Ledger.this.lockHeldAtCommit.add(status == STATUS_COMMITTED && lock.isHeld());
				}

			});
			Integer value = this.jdbc.queryForObject("select v from counter where id = 1", Integer.class);
			this.jdbc.update("update counter set v = ? where id = 1", value + 1);
		}

	}

}
