package dev.zkspring.lock;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.zkspring.test.ZkAppFixture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/** {@code @ZkLock} on methods returning CompletableFuture or CompletionStage, against a real ZooKeeper. */
class ZkLockCompletionStageIntegrationTests {

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server(LockApps::runner)
		.with((runner) -> runner.withUserConfiguration(Services.class));

	private static final Duration BOUND = Duration.ofSeconds(10);

	@Test
	void twoCallsOfTheSameKeyNeverOverlapAndRunOffTheCallersThread() {
		app.runner().run((context) -> {
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
		app.runner().run((context) -> {
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
		app.runner().run((context) -> {
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
		LockTestSupport other = new LockTestSupport(app.zk().newClient());
		app.runner().run((context) -> {
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

	static class FutureService extends LockApps.Journal {

		@ZkLock(key = "#key", waitTime = "10s")
		public CompletableFuture<String> guarded(String key, String who, CompletableFuture<String> gate) {
			enter(who);
			return gate;
		}

		@ZkLock(key = "#key", waitTime = "10s")
		public CompletionStage<String> stage(String key, String who) {
			enter(who);
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
