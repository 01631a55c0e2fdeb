package dev.zkspring.docs.recipes;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.queue.DistributedQueue;
import org.apache.curator.x.discovery.ServiceDiscovery;
import org.apache.curator.x.discovery.ServiceInstance;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ContextConsumer;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The examples of docs/curator-recipes.md, each on the starter's {@code CuratorFramework} bean of three
 * application contexts ("instances") against one real ZooKeeper, in the application's namespace.
 */
class CuratorRecipesIntegrationTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	private final ApplicationContextRunner instance = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class))
		.withPropertyValues(zk.connectProperty(), "zk.namespace=shop");

	@Test
	void theDoubleBarrierLetsNoInstanceStartBeforeAllEnteredNorLeaveBeforeAllFinished() {
		ApplicationContextRunner runner = this.instance.withBean(NightlyBatch.class);
		threeInstances(runner, (a, b, c) -> {
			ExecutorService pool = Executors.newFixedThreadPool(3);
			try {
				AtomicInteger started = new AtomicInteger();
				CountDownLatch lastMayFinish = new CountDownLatch(1);
				Future<Boolean> first = pool.submit(() -> a.getBean(NightlyBatch.class).runTogether(3, started::incrementAndGet));
				Future<Boolean> second = pool.submit(() -> b.getBean(NightlyBatch.class).runTogether(3, started::incrementAndGet));
				await("two of three entered: nobody starts").during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3))
					.until(() -> started.get() == 0);
				Future<Boolean> third = pool.submit(() -> c.getBean(NightlyBatch.class).runTogether(3, () -> {
					started.incrementAndGet();
					await().atMost(Duration.ofSeconds(20)).until(() -> lastMayFinish.getCount() == 0);
				}));
				await("all three started").atMost(Duration.ofSeconds(10)).until(() -> started.get() == 3);
				await("the third still works: nobody has left").during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3))
					.until(() -> !first.isDone() && !second.isDone());
				lastMayFinish.countDown();
				assertThat(List.of(first.get(30, TimeUnit.SECONDS), second.get(30, TimeUnit.SECONDS),
						third.get(30, TimeUnit.SECONDS))).containsOnly(true);
			}
			finally {
				pool.shutdownNow();
			}
			assertThat(a.getBean(CuratorFramework.class).getNamespace()).isEqualTo("shop");
		});
	}

	@Test
	@SuppressWarnings("unchecked")
	void theQueueHandsEveryMessageToExactlyOneInstance() {
		ApplicationContextRunner runner = this.instance.withBean(MailSender.class).withUserConfiguration(MailQueueConfiguration.class);
		threeInstances(runner, (a, b, c) -> {
			DistributedQueue<String> queue = a.getBean(DistributedQueue.class);
			List<String> messages = IntStream.range(0, 30).mapToObj((i) -> "mail-" + i).toList();
			for (String message : messages) {
				queue.put(message);
			}
			List<String> sent = new ArrayList<>();
			await("every message consumed").atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
				sent.clear();
				for (AssertableApplicationContext instance : List.of(a, b, c)) {
					sent.addAll(instance.getBean(MailSender.class).sent);
				}
				assertThat(sent).containsExactlyInAnyOrderElementsOf(messages);
			});
		});
	}

	@Test
	@SuppressWarnings("unchecked")
	void discoveryListsTheInstancesThatRunAndForgetsOneThatStops() {
		ApplicationContextRunner runner = this.instance.withUserConfiguration(OrdersRegistration.class);
		runner.withPropertyValues("server.port=8081").run((a) -> {
			ServiceDiscovery<Void> discovery = a.getBean(ServiceDiscovery.class);
			runner.withPropertyValues("server.port=8082").run((b) -> {
				await().atMost(Duration.ofSeconds(10)).until(() -> ports(discovery.queryForInstances("orders")),
						(ports) -> ports.equals(List.of(8081, 8082)));
			});
			await("b's registration gone with its context").atMost(Duration.ofSeconds(10))
				.until(() -> ports(discovery.queryForInstances("orders")), (ports) -> ports.equals(List.of(8081)));
		});
	}

	private static List<Integer> ports(Collection<ServiceInstance<Void>> instances) {
		return instances.stream().map(ServiceInstance::getPort).sorted().toList();
	}

	interface ThreeInstances {

		void accept(AssertableApplicationContext a, AssertableApplicationContext b, AssertableApplicationContext c)
				throws Throwable;

	}

	private static void threeInstances(ApplicationContextRunner runner, ThreeInstances test) {
		ContextConsumer<AssertableApplicationContext> all = (a) -> runner.run((b) -> runner.run((c) -> {
			for (AssertableApplicationContext context : List.of(a, b, c)) {
				assertThat(context).hasNotFailed();
			}
			test.accept(a, b, c);
		}));
		runner.run(all);
	}

}
