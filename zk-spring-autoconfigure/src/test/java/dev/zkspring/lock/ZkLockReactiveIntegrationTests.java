package dev.zkspring.lock;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.util.context.Context;

import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.zkspring.test.ZkAppFixture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/** {@code @ZkLock} on methods returning Mono and Flux, in a real application context against a real ZooKeeper. */
class ZkLockReactiveIntegrationTests {

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server(LockApps::runner)
		.with((runner) -> runner.withUserConfiguration(Services.class));

	private static final Duration BOUND = Duration.ofSeconds(10);

	@Test
	void twoSubscriptionsOfTheSameKeyNeverOverlap() {
		app.runner().run((context) -> {
			ReactiveService service = context.getBean(ReactiveService.class);
			ZkLockTemplate template = context.getBean(ZkLockTemplate.class);
			CompletableFuture<Void> firstGate = new CompletableFuture<>();
			CompletableFuture<String> first = service.guarded("k", "A", firstGate).toFuture();
			await().atMost(BOUND).until(() -> service.journal().contains("enter A"));
			CompletableFuture<String> second = service.guarded("k", "B", CompletableFuture.completedFuture(null))
				.toFuture();
			// B is queued behind A in this JVM: the overlap is attempted now, and must wait
			await().atMost(BOUND).until(() -> template.registry().waiting("k") == 1);
			assertThat(service.journal()).containsExactly("enter A");
			firstGate.complete(null);
			assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("A");
			assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo("B");
			assertThat(service.journal()).containsExactly("enter A", "exit A", "enter B", "exit B");
		});
	}

	@Test
	void lockIsTakenOffTheSubscribingThreadAndTheMethodRunsOnlyOnceItIsHeld() {
		app.runner().run((context) -> {
			ReactiveService service = context.getBean(ReactiveService.class);
			List<String> acquiringThreads = new CopyOnWriteArrayList<>();
			context.getBean(ZkLockTemplate.class).addObserver(new ZkLockObserver() {
				@Override
				public void acquired(String name, ZkLock.Mode mode, Duration waited) {
					acquiringThreads.add(Thread.currentThread().getName());
				}
			});
			AtomicReference<String> subscribedOn = new AtomicReference<>();
			String result = Mono.defer(() -> {
				subscribedOn.set(Thread.currentThread().getName());
				return service.guarded("t", "T", CompletableFuture.completedFuture(null));
			}).subscribeOn(Schedulers.parallel()).block(BOUND);
			assertThat(result).isEqualTo("T");
			assertThat(subscribedOn.get()).startsWith("parallel-");
			assertThat(acquiringThreads).singleElement()
				.asString()
				.startsWith(ZkLockTemplate.ASYNC_THREAD_PREFIX);
			assertThat(service.invokedOn()).singleElement().asString().startsWith(ZkLockTemplate.ASYNC_THREAD_PREFIX);
		});
	}

	/**
	 * The local lock and the thread's held-lock stack belong to the thread that took the lock: the release
	 * happens there too, however the result completes on another thread, and the thread, reused for the next
	 * hold, holds nothing then.
	 */
	@Test
	void lockIsGivenBackByTheThreadThatTookItWhenTheResultCompletesElsewhere() {
		app.runner().run((context) -> {
			ReactiveService service = context.getBean(ReactiveService.class);
			List<String> threads = new CopyOnWriteArrayList<>();
			context.getBean(ZkLockTemplate.class).addObserver(new ZkLockObserver() {
				@Override
				public void acquired(String name, ZkLock.Mode mode, Duration waited) {
					threads.add("acquired on " + Thread.currentThread().getName());
				}

				@Override
				public void released(String name, ZkLock.Mode mode, Duration held) {
					threads.add("released on " + Thread.currentThread().getName());
				}
			});
			for (int i = 0; i < 3; i++) {
				CompletableFuture<Void> gate = new CompletableFuture<>();
				CompletableFuture<String> result = service.guarded("same", "R" + i, gate).toFuture();
				String entered = "enter R" + i;
				await().atMost(BOUND).until(() -> service.journal().contains(entered));
				Schedulers.boundedElastic().schedule(() -> gate.complete(null));
				assertThat(result.get(10, TimeUnit.SECONDS)).isEqualTo("R" + i);
				assertThat(threads).hasSize(2);
				assertThat(threads.get(1)).isEqualTo(threads.get(0).replace("acquired", "released"));
				threads.clear();
			}
		});
	}

	@Test
	void errorReleasesTheLockBeforeTheErrorReachesTheSubscriber() {
		app.runner().run((context) -> {
			ReactiveService service = context.getBean(ReactiveService.class);
			assertThatExceptionOfType(IllegalStateException.class)
				.isThrownBy(() -> service.failing("e").block(BOUND))
				.withMessage("boom");
			assertThat(context.getBean(ZkLockTemplate.class).getHeldLocks()).isEmpty();
			assertThat(service.guardedNoWait("e").block(BOUND)).isEqualTo("free");
		});
	}

	@Test
	void cancellationReleasesTheLockForTheNextSubscriber() {
		app.runner().run((context) -> {
			ReactiveService service = context.getBean(ReactiveService.class);
			ZkLockTemplate template = context.getBean(ZkLockTemplate.class);
			Disposable first = service.guarded("c", "A", new CompletableFuture<>()).subscribe();
			await().atMost(BOUND).until(() -> service.journal().contains("enter A"));
			first.dispose();
			await().atMost(BOUND).until(() -> template.getHeldLocks().isEmpty());
			assertThat(service.guarded("c", "B", CompletableFuture.completedFuture(null)).block(BOUND)).isEqualTo("B");
			assertThat(service.journal()).containsExactly("enter A", "enter B", "exit B");
		});
	}

	@Test
	void cancellationWhileWaitingGivesTheLockBackAsSoonAsItIsTaken() {
		app.runner().run((context) -> {
			ReactiveService service = context.getBean(ReactiveService.class);
			ZkLockTemplate template = context.getBean(ZkLockTemplate.class);
			CompletableFuture<Void> firstGate = new CompletableFuture<>();
			CompletableFuture<String> first = service.guarded("w", "A", firstGate).toFuture();
			await().atMost(BOUND).until(() -> service.journal().contains("enter A"));
			Disposable waiting = service.guarded("w", "B", new CompletableFuture<>()).subscribe();
			await().atMost(BOUND).until(() -> template.registry().waiting("w") == 1);
			waiting.dispose();
			firstGate.complete(null);
			assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("A");
			assertThat(service.guarded("w", "C", CompletableFuture.completedFuture(null)).block(BOUND)).isEqualTo("C");
			assertThat(service.journal()).containsExactly("enter A", "exit A", "enter C", "exit C");
		});
	}

	@Test
	void fluxHoldsTheLockUntilItCompletes() {
		app.runner().run((context) -> {
			ReactiveService service = context.getBean(ReactiveService.class);
			ZkLockTemplate template = context.getBean(ZkLockTemplate.class);
			CompletableFuture<Void> gate = new CompletableFuture<>();
			CompletableFuture<List<Integer>> items = service.items("f", gate).collectList().toFuture();
			await().atMost(BOUND).until(() -> template.getHeldLocks().size() == 1);
			assertThatExceptionOfType(ZkLockBusyException.class)
				.isThrownBy(() -> service.guardedNoWait("f").block(BOUND));
			gate.complete(null);
			assertThat(items.get(10, TimeUnit.SECONDS)).containsExactly(1, 2, 3);
			assertThat(template.getHeldLocks()).isEmpty();
		});
	}

	@Test
	void fencingTokenIsInTheReactorContextAndIncreases() {
		app.runner().run((context) -> {
			ReactiveService service = context.getBean(ReactiveService.class);
			Long first = service.token("tok").block(BOUND);
			Long second = service.token("tok").block(BOUND);
			assertThat(first).isPositive();
			assertThat(second).isGreaterThan(first);
			assertThat(ZkLockReactorContext.from(Context.empty())).isEmpty();
			assertThatExceptionOfType(IllegalStateException.class)
				.isThrownBy(() -> ZkLockReactorContext.current().block(BOUND))
				.withMessageContaining("only available inside the publisher of a reactive @ZkLock method");
		});
	}

	@Test
	void busyKeySkipsWithEmptyOrSignalsBusy() throws Exception {
		LockTestSupport other = new LockTestSupport(app.zk().newClient());
		app.runner().run((context) -> {
			ReactiveService service = context.getBean(ReactiveService.class);
			LockTestSupport.holdWhile(other, ZkLock.Mode.MUTEX, "busy", () -> {
				assertThat(service.skipMono().blockOptional(BOUND)).isEmpty();
				assertThat(service.skipFlux().collectList().block(BOUND)).isEmpty();
				assertThatExceptionOfType(ZkLockBusyException.class).isThrownBy(() -> service.throwMono().block(BOUND))
					.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo("busy"));
				assertThat(service.runs()).hasValue(0);
			});
		});
	}

	@Test
	void lostLockEndsThePublisherWithAnErrorAndPublishesTheEvent() throws Exception {
		CuratorFramework intruder = app.zk().newClient();
		app.runner().run((context) -> {
			ReactiveService service = context.getBean(ReactiveService.class);
			LostEvents lost = context.getBean(LostEvents.class);
			CompletableFuture<String> result = service.guarded("lost", "A", new CompletableFuture<>()).toFuture();
			await().atMost(BOUND).until(() -> service.journal().contains("enter A"));
			String keyPath = "/locks/lost";
			for (String child : intruder.getChildren().forPath(keyPath)) {
				intruder.delete().forPath(keyPath + "/" + child);
			}
			await().atMost(BOUND).until(result::isDone);
			assertThat(result).failsWithin(BOUND).withThrowableOfType(Exception.class)
				.havingRootCause()
				.isInstanceOf(ZkLockLostException.class);
			await().atMost(BOUND).until(() -> lost.keys.contains("lost"));
			assertThat(service.journal()).containsExactly("enter A");
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class Services {

		@Bean
		ReactiveService reactiveService() {
			return new ReactiveService();
		}

		@Bean
		LostEvents lostEvents() {
			return new LostEvents();
		}

	}

	static class LostEvents implements ApplicationListener<ZkLockLostEvent> {

		final List<String> keys = new CopyOnWriteArrayList<>();

		@Override
		public void onApplicationEvent(ZkLockLostEvent event) {
			this.keys.add(event.getKey());
		}

	}

	static class ReactiveService extends LockApps.Journal {

		final AtomicInteger runs = new AtomicInteger();

		public AtomicInteger runs() {
			return this.runs;
		}

		@ZkLock(key = "#key", waitTime = "10s")
		public Mono<String> guarded(String key, String who, CompletableFuture<Void> gate) {
			this.invokedOn.add(Thread.currentThread().getName());
			return Mono.fromRunnable(() -> this.journal.add("enter " + who))
				.then(Mono.fromFuture(gate))
				.then(Mono.fromCallable(() -> {
					this.journal.add("exit " + who);
					return who;
				}));
		}

		@ZkLock(key = "#key", waitTime = "0")
		public Mono<String> guardedNoWait(String key) {
			return Mono.just("free");
		}

		@ZkLock(key = "#key", waitTime = "10s")
		public Mono<String> failing(String key) {
			return Mono.error(new IllegalStateException("boom"));
		}

		@ZkLock(key = "#key", waitTime = "10s")
		public Flux<Integer> items(String key, CompletableFuture<Void> gate) {
			return Flux.just(1, 2).concatWith(Mono.fromFuture(gate).then(Mono.just(3)));
		}

		@ZkLock(key = "#key", waitTime = "10s")
		public Mono<Long> token(String key) {
			return ZkLockReactorContext.current().map(ZkLockContext::getFencingToken);
		}

		@ZkLock(key = "'busy'", waitTime = "0", onBusy = ZkLock.OnBusy.SKIP)
		public Mono<String> skipMono() {
			this.runs.incrementAndGet();
			return Mono.just("ran");
		}

		@ZkLock(key = "'busy'", waitTime = "0", onBusy = ZkLock.OnBusy.SKIP)
		public Flux<String> skipFlux() {
			this.runs.incrementAndGet();
			return Flux.just("ran");
		}

		@ZkLock(key = "'busy'", waitTime = "0")
		public Mono<String> throwMono() {
			this.runs.incrementAndGet();
			return Mono.just("ran");
		}

	}

}
