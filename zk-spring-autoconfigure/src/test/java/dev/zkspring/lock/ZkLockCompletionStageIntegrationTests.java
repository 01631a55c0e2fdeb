package dev.zkspring.lock;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.autoconfigure.ZkLockAutoConfiguration;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/** {@code @ZkLock} on methods returning CompletableFuture or CompletionStage, against a real ZooKeeper. */
class ZkLockCompletionStageIntegrationTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	private static final Duration BOUND = Duration.ofSeconds(10);

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class, ZkLockAutoConfiguration.class))
		.withPropertyValues(zk.connectProperty())
		.withUserConfiguration(Services.class);

	@Test
	void twoCallsOfTheSameKeyNeverOverlapAndRunOffTheCallersThread() {
		this.contextRunner.run((context) -> {
			FutureService service = context.getBean(FutureService.class);
			ZkLockTemplate template = context.getBean(ZkLockTemplate.class);
			CompletableFuture<String> firstGate = new CompletableFuture<>();
			CompletableFuture<String> first = service.guarded("k", "A", firstGate);
			await().atMost(BOUND).until(() -> service.journal().contains("enter A"));
			CompletionStage<String> second = service.stage("k", "B");
			await().atMost(BOUND).until(() -> template.registry().waiting("k") == 1);
			assertThat(service.journal()).containsExactly("enter A");
			firstGate.complete("A");
			assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("A");
			assertThat(second.toCompletableFuture().get(10, TimeUnit.SECONDS)).isEqualTo("B");
			assertThat(service.journal()).containsExactly("enter A", "enter B");
			assertThat(service.invokedOn()).hasSize(2)
				.allSatisfy((name) -> assertThat(name).startsWith(ZkLockTemplate.ASYNC_THREAD_PREFIX));
		});
	}

	@Test
	void failedResultReleasesTheLockBeforeTheCallerSeesIt() {
		this.contextRunner.run((context) -> {
			FutureService service = context.getBean(FutureService.class);
			CompletableFuture<String> gate = new CompletableFuture<>();
			CompletableFuture<String> failed = service.guarded("e", "A", gate);
			await().atMost(BOUND).until(() -> service.journal().contains("enter A"));
			gate.completeExceptionally(new IllegalStateException("boom"));
			assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> failed.get(10, TimeUnit.SECONDS))
				.withCauseInstanceOf(IllegalStateException.class);
			assertThat(context.getBean(ZkLockTemplate.class).getHeldLocks()).isEmpty();
			assertThat(service.stage("e", "B").toCompletableFuture().get(10, TimeUnit.SECONDS)).isEqualTo("B");
		});
	}

	@Test
	void cancelledResultReleasesTheLock() {
		this.contextRunner.run((context) -> {
			FutureService service = context.getBean(FutureService.class);
			CompletableFuture<String> gate = new CompletableFuture<>();
			CompletableFuture<String> first = service.guarded("c", "A", gate);
			await().atMost(BOUND).until(() -> service.journal().contains("enter A"));
			first.cancel(false);
			await().atMost(BOUND).until(() -> context.getBean(ZkLockTemplate.class).getHeldLocks().isEmpty());
			assertThat(gate).isCancelled();
			assertThat(service.stage("c", "B").toCompletableFuture().get(10, TimeUnit.SECONDS)).isEqualTo("B");
		});
	}

	@Test
	void busyKeyCompletesWithNullOrFailsBusy() throws Exception {
		LockTestSupport other = new LockTestSupport(zk.newClient());
		this.contextRunner.run((context) -> {
			FutureService service = context.getBean(FutureService.class);
			LockTestSupport.holdWhile(other, ZkLock.Mode.MUTEX, "busy", () -> {
				assertThat(service.skip().get(10, TimeUnit.SECONDS)).isNull();
				assertThatExceptionOfType(ExecutionException.class)
					.isThrownBy(() -> service.throwing().get(10, TimeUnit.SECONDS))
					.withCauseInstanceOf(ZkLockBusyException.class);
				assertThat(service.journal()).isEmpty();
			});
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class Services {

		@Bean
		FutureService futureService() {
			return new FutureService();
		}

	}

	static class FutureService {

		final List<String> journal = new CopyOnWriteArrayList<>();

		final List<String> invokedOn = new CopyOnWriteArrayList<>();

		public List<String> journal() {
			return this.journal;
		}

		public List<String> invokedOn() {
			return this.invokedOn;
		}

		@ZkLock(key = "#key", waitTime = "10s")
		public CompletableFuture<String> guarded(String key, String who, CompletableFuture<String> gate) {
			this.invokedOn.add(Thread.currentThread().getName());
			this.journal.add("enter " + who);
			return gate;
		}

		@ZkLock(key = "#key", waitTime = "10s")
		public CompletionStage<String> stage(String key, String who) {
			this.invokedOn.add(Thread.currentThread().getName());
			this.journal.add("enter " + who);
			return CompletableFuture.completedFuture(who);
		}

		@ZkLock(key = "'busy'", waitTime = "0", onBusy = ZkLock.OnBusy.SKIP)
		public CompletableFuture<String> skip() {
			this.journal.add("skip ran");
			return CompletableFuture.completedFuture("ran");
		}

		@ZkLock(key = "'busy'", waitTime = "0")
		public CompletableFuture<String> throwing() {
			this.journal.add("throwing ran");
			return CompletableFuture.completedFuture("ran");
		}

	}

}
