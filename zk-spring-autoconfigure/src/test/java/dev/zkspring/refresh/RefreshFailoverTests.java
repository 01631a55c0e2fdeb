package dev.zkspring.refresh;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Value;

import dev.zkspring.refresh.RefreshTestSupport.EventRecorder;
import dev.zkspring.test.ZkAppFixture;
import dev.zkspring.test.ZooKeeperExtension;

import static dev.zkspring.refresh.RefreshTestSupport.WAIT;
import static dev.zkspring.refresh.RefreshTestSupport.ZNODE;
import static dev.zkspring.refresh.RefreshTestSupport.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Beans across connection faults: nothing half-applied, nothing lost, refusals not repeated. */
class RefreshFailoverTests {

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server(RefreshTestSupport::runner).cleaning("/config")
		.with((runner) -> runner
				.withPropertyValues("zk.connection-timeout=5s", "zk.session-timeout=10s")
				.withUserConfiguration(Counter.class));

	@Test
	void aChangeWrittenWhileTheSessionExpiredReachesTheBeansOnceANewSessionStarts() throws Exception {
		write(app.writer(), ZNODE, "{'shop':{'count':'1'}}");
		app.runner().run((context) -> {
			CuratorFramework client = context.getBean(CuratorFramework.class);
			List<ConnectionState> states = new CopyOnWriteArrayList<>();
			client.getConnectionStateListenable().addListener((c, state) -> states.add(state));
			ZooKeeperExtension.expireSession(client);
			write(app.writer(), ZNODE, "{'shop':{'count':'2'}}");
			await().atMost(Duration.ofSeconds(20)).until(() -> states.contains(ConnectionState.LOST));
			await().atMost(Duration.ofSeconds(20)).until(() -> context.getBean(Counter.class).count == 2);
			write(app.writer(), ZNODE, "{'shop':{'count':'3'}}");
			await().atMost(WAIT).until(() -> context.getBean(Counter.class).count == 3);
		});
	}

	@Test
	void whileTheServerIsDownBeansKeepTheirValuesAndTakeChangesOnceItIsBack() throws Exception {
		write(app.writer(), ZNODE, "{'shop':{'count':'1'}}");
		app.runner().run((context) -> {
			CuratorFramework client = context.getBean(CuratorFramework.class);
			EventRecorder events = context.getBean(EventRecorder.class);
			app.zk().stopServer();
			try {
				await().atMost(WAIT).until(() -> !client.getZookeeperClient().isConnected());
				assertThat(context.getBean(Counter.class).count).isEqualTo(1);
				assertThat(events.rejections).isEmpty();
			}
			finally {
				app.zk().restartServer();
			}
			await().atMost(Duration.ofSeconds(20)).ignoreExceptions()
				.untilAsserted(() -> write(app.writer(), ZNODE, "{'shop':{'count':'5'}}"));
			await().atMost(Duration.ofSeconds(20)).until(() -> context.getBean(Counter.class).count == 5);
			assertThat(context.getEnvironment().getProperty("shop.count")).isEqualTo("5");
		});
	}

	@Test
	void aRefusedChangeIsNotAppliedNorReportedAgainAfterReconnectingAndItsFixIsApplied() throws Exception {
		write(app.writer(), ZNODE, "{'shop':{'count':'1'}}");
		app.runner().run((context) -> {
			CuratorFramework client = context.getBean(CuratorFramework.class);
			EventRecorder events = context.getBean(EventRecorder.class);
			write(app.writer(), ZNODE, "{'shop':{'count':'many'}}");
			await().atMost(WAIT).until(() -> events.rejections.size() == 1);
			List<ConnectionState> states = new CopyOnWriteArrayList<>();
			client.getConnectionStateListenable().addListener((c, state) -> states.add(state));
			ZooKeeperExtension.expireSession(client);
			await().atMost(Duration.ofSeconds(20))
				.until(() -> states.contains(ConnectionState.LOST) && client.getZookeeperClient().isConnected());
			write(app.writer(), ZNODE, "{'shop':{'count':'7'}}");
			await().atMost(Duration.ofSeconds(20)).until(() -> context.getBean(Counter.class).count == 7);
			assertThat(events.rejections).hasSize(1);
			assertThat(events.refreshes).hasSize(1);
		});
	}

	@RefreshScope
	static class Counter {

		@Value("${shop.count}")
		volatile int count;

	}

}
