package dev.zkspring.refresh;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.zkspring.config.ZkConfigRejectedEvent;
import dev.zkspring.refresh.RefreshTestSupport.EventRecorder;
import dev.zkspring.test.ZkAppFixture;

import static dev.zkspring.refresh.RefreshTestSupport.WAIT;
import static dev.zkspring.refresh.RefreshTestSupport.ZNODE;
import static dev.zkspring.refresh.RefreshTestSupport.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A change is applied to every target or to none; removed keys fall back or are refused. */
@ExtendWith(OutputCaptureExtension.class)
class AtomicRefreshIntegrationTests {

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server(RefreshTestSupport::runner).cleaning("/config")
		.with((runner) -> runner.withUserConfiguration(Name.class, Count.class));

	@Test
	void aChangeWhoseSecondConversionFailsLeavesBothBeansAndTheEnvironmentOnTheOldValues(CapturedOutput output)
			throws Exception {
		write(app.writer(), ZNODE, "{'shop':{'name':'old-name','count':'1'}}");
		app.runner().run((context) -> {
			EventRecorder events = context.getBean(EventRecorder.class);
			Name name = context.getBean(Name.class);
			Count count = context.getBean(Count.class);
			write(app.writer(), ZNODE, "{'shop':{'name':'new-name','count':'secret-not-a-number'}}");
			await().atMost(WAIT).until(() -> events.rejections.size() == 1);
			ZkConfigRejectedEvent rejection = events.rejections.get(0);
			assertThat(rejection.getZnode()).isEqualTo(ZNODE);
			assertThat(rejection.getVersion()).isEqualTo(1);
			assertThat(rejection.getKey()).isEqualTo("shop.count");
			assertThat(rejection.getTarget()).isEqualTo("bean 'atomicRefreshIntegrationTests.Count' field 'count'");
			assertThat(rejection.getReason()).contains("int").doesNotContain("secret");
			assertThat(name.name).isEqualTo("old-name");
			assertThat(count.count).isEqualTo(1);
			assertThat(context.getEnvironment().getProperty("shop.name")).isEqualTo("old-name");
			assertThat(events.refreshes).isEmpty();
			assertThat(events.changes).isEmpty();
			assertThat(output).contains("Refused the configuration change of znode /config/orders (version 1)")
				.contains("shop.count")
				.doesNotContain("secret-not-a-number");
			// a later good change applies every key, including the one held back
			write(app.writer(), ZNODE, "{'shop':{'name':'new-name','count':'2'}}");
			await().atMost(WAIT).until(() -> events.refreshes.size() == 1);
			assertThat(name.name).isEqualTo("new-name");
			assertThat(count.count).isEqualTo(2);
			assertThat(context.getEnvironment().getProperty("shop.count")).isEqualTo("2");
		});
	}

	@Test
	void aRefusedDocumentNeitherHoldsBackAnotherContextNorReturnsAsTheLastGoodVersion() throws Exception {
		write(app.writer(), ZNODE, "{'shop':{'count':'1'}}");
		write(app.writer(), "/config/application", "{'shop':{'name':'old-name'}}");
		app.runner().run((context) -> {
			EventRecorder events = context.getBean(EventRecorder.class);
			Name name = context.getBean(Name.class);
			Count count = context.getBean(Count.class);
			write(app.writer(), ZNODE, "{'shop':{'count':'not-a-number'}}");
			await().atMost(WAIT).until(() -> events.rejections.size() == 1);
			write(app.writer(), "/config/application", "{'shop':{'name':'new-name'}}");
			await().atMost(WAIT).until(() -> "new-name".equals(name.name));
			assertThat(count.count).isEqualTo(1);
			assertThat(context.getEnvironment().getProperty("shop.count")).isEqualTo("1");
			assertThat(events.rejections).as("the refused version is not reported again").hasSize(1);
			// a malformed document now keeps the last accepted version of the context, not the refused one
			write(app.writer(), ZNODE, "{ not json");
			await().atMost(WAIT).until(() -> events.rejections.size() == 2);
			write(app.writer(), "/config/application", "{'shop':{'name':'newer-name'}}");
			await().atMost(WAIT).until(() -> "newer-name".equals(name.name));
			assertThat(count.count).isEqualTo(1);
			assertThat(context.getEnvironment().getProperty("shop.count")).isEqualTo("1");
			assertThat(events.rejections).hasSize(2);
			write(app.writer(), ZNODE, "{'shop':{'count':'3'}}");
			await().atMost(WAIT).until(() -> count.count == 3);
		});
	}

	@Test
	void aZnodeRecreatedAfterARefusalIsJudgedByItsNewDocumentThoughItsVersionStartsAgain() throws Exception {
		write(app.writer(), "/config/application", "{'shop':{'name':'name','count':'1'}}");
		app.runner().run((context) -> {
			EventRecorder events = context.getBean(EventRecorder.class);
			Count count = context.getBean(Count.class);
			write(app.writer(), ZNODE, "{'shop':{'count':'not-a-number'}}");
			await().atMost(WAIT).until(() -> events.rejections.size() == 1);
			assertThat(events.rejections.get(0).getVersion()).isZero();
			app.writer().delete().forPath(ZNODE);
			write(app.writer(), ZNODE, "{'shop':{'count':'7'}}");
			await().atMost(WAIT).until(() -> count.count == 7);
			assertThat(context.getEnvironment().getProperty("shop.count")).isEqualTo("7");
		});
	}

	@Test
	void anAppliedChangePublishesTheRefreshBeforeTheConfigChangeWithKeysTargetsAndVersions() throws Exception {
		write(app.writer(), ZNODE, "{'shop':{'name':'a','count':'1'}}");
		app.runner().run((context) -> {
			EventRecorder events = context.getBean(EventRecorder.class);
			write(app.writer(), ZNODE, "{'shop':{'name':'b','count':'1','other':'x'}}");
			await().atMost(WAIT).until(() -> events.changes.size() == 1);
			ZkRefreshedEvent refreshed = events.refreshes.get(0);
			assertThat(events.all).containsExactly(refreshed, events.changes.get(0));
			assertThat(refreshed.getKeys()).containsExactlyInAnyOrder("shop.name", "shop.other");
			assertThat(refreshed.getTargets()).containsExactly("bean 'atomicRefreshIntegrationTests.Name' field 'name'");
			assertThat(refreshed.getZnodeVersions()).containsEntry(ZNODE, 1);
			assertThat(refreshed.getDuration()).isPositive();
			assertThat(refreshed).asString().contains("shop.name").doesNotContain("=b");
		});
	}

	@Test
	void aRemovedKeyFallsBackToThePackagedConfiguration() throws Exception {
		write(app.writer(), ZNODE, "{'shop':{'name':'n','count':'1','packaged':'from-zk'}}");
		app.runner().withUserConfiguration(Packaged.class).run((context) -> {
			EventRecorder events = context.getBean(EventRecorder.class);
			Packaged packaged = context.getBean(Packaged.class);
			assertThat(packaged.packaged).isEqualTo("from-zk");
			assertThat(packaged.withDefault).isEqualTo("from-zk");
			write(app.writer(), ZNODE, "{'shop':{'name':'n','count':'1'}}");
			await().atMost(WAIT).until(() -> events.refreshes.size() == 1);
			assertThat(packaged.packaged).isEqualTo("from-yml");
			assertThat(packaged.withDefault).isEqualTo("from-yml");
		});
	}

	@Test
	void aRemovedKeyFallsBackToThePlaceholderDefault() throws Exception {
		write(app.writer(), ZNODE, "{'shop':{'name':'n','count':'1','mode':'fast'}}");
		app.runner().withUserConfiguration(Packaged.class).run((context) -> {
			EventRecorder events = context.getBean(EventRecorder.class);
			Packaged packaged = context.getBean(Packaged.class);
			assertThat(packaged.mode).isEqualTo("fast");
			write(app.writer(), ZNODE, "{'shop':{'name':'n','count':'1'}}");
			await().atMost(WAIT).until(() -> events.refreshes.size() == 1);
			assertThat(packaged.mode).isEqualTo("standard");
		});
	}

	@Test
	void aRemovedKeyWithNoFallbackIsRejected() throws Exception {
		write(app.writer(), ZNODE, "{'shop':{'name':'n','count':'1'}}");
		app.runner().run((context) -> {
			EventRecorder events = context.getBean(EventRecorder.class);
			write(app.writer(), ZNODE, "{'shop':{'count':'2'}}");
			await().atMost(WAIT).until(() -> events.rejections.size() == 1);
			ZkConfigRejectedEvent rejection = events.rejections.get(0);
			assertThat(rejection.getZnode()).isEqualTo(ZNODE);
			assertThat(rejection.getKey()).isEqualTo("shop.name");
			assertThat(rejection.getTarget()).isEqualTo("bean 'atomicRefreshIntegrationTests.Name' field 'name'");
			assertThat(rejection.getReason()).contains("no value");
			assertThat(context.getBean(Name.class).name).isEqualTo("n");
			assertThat(context.getBean(Count.class).count).isEqualTo(1);
			assertThat(context.getEnvironment().getProperty("shop.name")).isEqualTo("n");
		});
	}

	@Test
	void aRefreshInProgressDoesNotBlockCallersOfTheBean() throws Exception {
		write(app.writer(), ZNODE, "{'shop':{'name':'n','count':'1','slow':'a'}}");
		app.runner().withUserConfiguration(Slow.class).run((context) -> {
			Slow slow = context.getBean(Slow.class);
			slow.block = new CountDownLatch(1);
			write(app.writer(), ZNODE, "{'shop':{'name':'m','count':'1','slow':'b'}}");
			// the refresher is inside phase 2, in the bean's own setter
			assertThat(slow.entered.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
			assertThat(slow.value()).isEqualTo("a");
			slow.block.countDown();
			EventRecorder events = context.getBean(EventRecorder.class);
			await().atMost(WAIT).until(() -> events.refreshes.size() == 1);
			assertThat(slow.value()).isEqualTo("b");
		});
	}

	@Test
	void consistentReadsNeverSeeAChangeHalfApplied() throws Exception {
		write(app.writer(), ZNODE, "{'shop':{'name':'n','count':'1'},'pair':{'left':'0','right':'0'}}");
		app.runner().withUserConfiguration(Pair.class).run((context) -> {
			Pair pair = context.getBean(Pair.class);
			ConsistentReads reads = context.getBean(ConsistentReads.class);
			EventRecorder events = context.getBean(EventRecorder.class);
			int[] mismatches = new int[1];
			Thread reader = new Thread(() -> {
				while (!Thread.currentThread().isInterrupted()) {
					int[] both = reads.read(() -> new int[] { pair.left, pair.right });
					if (both[0] != both[1]) {
						mismatches[0]++;
					}
				}
			});
			reader.start();
			try {
				for (int i = 1; i <= 20; i++) {
					write(app.writer(), ZNODE, "{'shop':{'name':'n','count':'1'},'pair':{'left':'" + i + "','right':'" + i + "'}}");
					int expected = i;
					await().atMost(WAIT).until(() -> pair.right == expected);
				}
			}
			finally {
				reader.interrupt();
				reader.join();
			}
			assertThat(events.refreshes).hasSize(20);
			assertThat(mismatches[0]).isZero();
		});
	}

	@RefreshScope
	static class Name {

		@Value("${shop.name}")
		volatile String name;

	}

	@RefreshScope
	static class Count {

		@Value("${shop.count}")
		volatile int count;

	}

	@RefreshScope
	static class Packaged {

		@Value("${shop.packaged}")
		volatile String packaged;

		@Value("${shop.packaged:default}")
		volatile String withDefault;

		@Value("${shop.mode:standard}")
		volatile String mode;

	}

	@RefreshScope
	static class Slow {

		volatile CountDownLatch block = new CountDownLatch(0);

		final CountDownLatch entered = new CountDownLatch(1);

		private volatile String value;

		@Value("${shop.slow}")
		void setValue(String value) throws InterruptedException {
			if (this.block.getCount() > 0) {
				this.entered.countDown();
				this.block.await(30, TimeUnit.SECONDS);
			}
			this.value = value;
		}

		String value() {
			return this.value;
		}

	}

	@RefreshScope
	static class Pair {

		@Value("${pair.left}")
		int left;

		@Value("${pair.right}")
		int right;

	}

}
