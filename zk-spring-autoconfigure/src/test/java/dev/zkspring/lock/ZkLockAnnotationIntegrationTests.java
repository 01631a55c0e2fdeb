package dev.zkspring.lock;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.aop.support.AopUtils;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;

import dev.zkspring.test.ZkAppFixture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/** {@code @ZkLock} on beans of a real application context, against a real ZooKeeper. */
class ZkLockAnnotationIntegrationTests {

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server(LockApps::runner)
		.with((runner) -> runner.withUserConfiguration(Services.class));

	@Test
	void keyIsSpelOverParameterNamesPositionsRootAndBeans() {
		app.runner().run((context) -> {
			StockService stock = context.getBean(StockService.class);
			assertThat(AopUtils.isAopProxy(stock)).isTrue();
			assertThat(stock.deduct("A-1", 2)).isEqualTo("stock:A-1");
			assertThat(stock.byPosition("B-2")).isEqualTo("pos:B-2");
			assertThat(stock.byRoot()).isEqualTo("byRoot");
			assertThat(stock.byBean()).isEqualTo("tenant-7:x");
			assertThat(stock.defaultKey()).isEqualTo("StockService.defaultKey");
		});
	}

	@Test
	void keyThatEvaluatesToNullIsRejectedWithoutRunningTheMethod() {
		app.runner().run((context) -> {
			StockService stock = context.getBean(StockService.class);
			assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> stock.byPosition(null))
				.withMessageContaining("The key of @ZkLock on StockService.byPosition(String)")
				.withMessageContaining("evaluated to null");
		});
	}

	@Test
	void lockPathIsUnderTheConfiguredRoot() {
		app.runner().withPropertyValues("zk.lock.root=/my/locks").run((context) -> {
			StockService stock = context.getBean(StockService.class);
			assertThat(stock.path("k")).isEqualTo("/my/locks/stock:k");
		});
	}

	@Test
	void interfaceMethodsAreLocked() {
		app.runner().run((context) -> {
			Greeter greeter = context.getBean(Greeter.class);
			assertThat(greeter.greet("ann")).isEqualTo("greet:ann");
		});
	}

	@Test
	void busyKeyThrowsOrSkipsWithEmptyResult() throws Exception {
		LockTestSupport other = new LockTestSupport(app.zk().newClient());
		app.runner().run((context) -> {
			BusyService busy = context.getBean(BusyService.class);
			LockTestSupport.holdWhile(other, ZkLock.Mode.MUTEX, "busy", () -> {
				assertThatExceptionOfType(ZkLockBusyException.class).isThrownBy(busy::throwing)
					.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo("busy"));
				assertThat(busy.skipOptional()).isEmpty();
				assertThat(busy.skipObject()).isNull();
				busy.skipVoid();
				assertThat(busy.skipBoxed()).isNull();
				assertThat(busy.runs()).isZero();
			});
			// the holder's release deletes its node in the background: a zero-wait skip runs once that is seen
			await().atMost(Duration.ofSeconds(10)).until(() -> busy.skipOptional().isPresent());
			assertThat(busy.skipBoxed()).isEqualTo(1);
			assertThat(busy.runs()).isEqualTo(2);
		});
	}

	@Test
	void asyncMethodReturningCompletableFutureHoldsTheLockOnTheExecutorThread() {
		app.runner().withUserConfiguration(AsyncConfiguration.class).run((context) -> {
			AsyncService service = context.getBean(AsyncService.class);
			String result = service.work("job").get(10, TimeUnit.SECONDS);
			assertThat(result).startsWith("async:job on ").doesNotContain(Thread.currentThread().getName());
		});
	}

	@Test
	void lockIsOffWhenZkLockEnabledIsFalse() {
		app.runner().withPropertyValues("zk.lock.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(ZkLockTemplate.class);
			assertThat(AopUtils.isAopProxy(context.getBean(StockService.class))).isFalse();
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class Services {

		@Bean
		StockService stockService() {
			return new StockService();
		}

		@Bean
		Tenant tenant() {
			return new Tenant();
		}

		@Bean
		Greeter greeter() {
			return new DefaultGreeter();
		}

		@Bean
		BusyService busyService() {
			return new BusyService();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableAsync
	static class AsyncConfiguration {

		@Bean
		AsyncService asyncService() {
			return new AsyncService();
		}

	}

	static class Tenant {

		public String getId() {
			return "tenant-7";
		}

	}

	static class StockService {

		@ZkLock(key = "'stock:' + #sku", waitTime = "3s")
		public String deduct(String sku, int n) {
			return ZkLockContext.current().getKey();
		}

		@ZkLock(key = "#p0 == null ? null : 'pos:' + #p0")
		public String byPosition(String sku) {
			return ZkLockContext.current().getKey();
		}

		@ZkLock(key = "#root.method.name")
		public String byRoot() {
			return ZkLockContext.current().getKey();
		}

		@ZkLock(key = "@tenant.id + ':x'")
		public String byBean() {
			return ZkLockContext.current().getKey();
		}

		@ZkLock
		public String defaultKey() {
			return ZkLockContext.current().getKey();
		}

		@ZkLock(key = "'stock:' + #sku")
		public String path(String sku) {
			return ZkLockContext.current().getPath();
		}

	}

	interface Greeter {

		@ZkLock(key = "'greet:' + #name")
		String greet(String name);

	}

	static class DefaultGreeter implements Greeter {

		@Override
		public String greet(String name) {
			return ZkLockContext.current().getKey();
		}

	}

	static class BusyService {

		private final AtomicInteger runs = new AtomicInteger();

		public int runs() {
			return this.runs.get();
		}

		@ZkLock(key = "'busy'", waitTime = "0")
		public String throwing() {
			this.runs.incrementAndGet();
			return "ran";
		}

		@ZkLock(key = "'busy'", waitTime = "0", onBusy = ZkLock.OnBusy.SKIP)
		public Optional<String> skipOptional() {
			this.runs.incrementAndGet();
			return Optional.of("ran");
		}

		@ZkLock(key = "'busy'", waitTime = "100ms", onBusy = ZkLock.OnBusy.SKIP)
		public String skipObject() {
			this.runs.incrementAndGet();
			return "ran";
		}

		@ZkLock(key = "'busy'", waitTime = "0", onBusy = ZkLock.OnBusy.SKIP)
		public void skipVoid() {
			this.runs.incrementAndGet();
		}

		@ZkLock(key = "'busy'", waitTime = "PT0.1S", onBusy = ZkLock.OnBusy.SKIP)
		public Integer skipBoxed() {
			this.runs.incrementAndGet();
			return 1;
		}

	}

	static class AsyncService {

		@Async
		@ZkLock(key = "'async:' + #name")
		public CompletableFuture<String> work(String name) {
			ZkLockContext lock = ZkLockContext.current();
			lock.assertHeld();
			return CompletableFuture.completedFuture(lock.getKey() + " on " + Thread.currentThread().getName());
		}

	}

}
