package dev.zkspring.config;

import java.util.ArrayList;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.cloud.autoconfigure.RefreshAutoConfiguration;
import org.springframework.cloud.context.refresh.ContextRefresher;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

import dev.zkspring.config.ConfigTestSupport.ShopConfiguration;
import dev.zkspring.test.ZkAppFixture;

import static dev.zkspring.config.ConfigTestSupport.write;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring Cloud's refresh ({@code POST /actuator/refresh} calls {@link ContextRefresher#refresh()}):
 * with {@code spring.config.import=zk:} (its refresher re-runs Boot's config-data processing) and in
 * its legacy bootstrap mode (it builds a throwaway context), a refresh reloads the same contexts on
 * the application's one session. The watch is off, so only the refresh can bring the change.
 */
class ZkConfigSpringCloudRefreshTests {

	private static final String OWN = "/config/orders";

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server(ConfigTestSupport::runner).cleaning("/config");

	@BeforeEach
	void setUp() throws Exception {
		write(app.writer(), OWN, "{\"shop\":{\"greeting\":\"v1\",\"owner\":{\"name\":\"zk\"}}}");
	}

	@Test
	void aRefreshWithTheZkImportReloadsTheSameContextsOnTheSameSession() throws Exception {
		try (ConfigurableApplicationContext context = run("--spring.config.import=zk:")) {
			refreshReloadsOnTheSameSession(context);
		}
	}

	@Test
	void aRefreshInLegacyBootstrapModeReloadsTheSameContextsOnTheSameSession() throws Exception {
		try (ConfigurableApplicationContext context = run("--spring.cloud.bootstrap.enabled=true")) {
			refreshReloadsOnTheSameSession(context);
		}
	}

	private void refreshReloadsOnTheSameSession(ConfigurableApplicationContext context) throws Exception {
		CuratorFramework client = context.getBean(CuratorFramework.class);
		long session = client.getZookeeperClient().getZooKeeper().getSessionId();
		int connections = connections();
		int clients = RecordingCuratorFrameworkCustomizer.applied.get();
		assertThat(context.getEnvironment().getProperty("shop.greeting")).isEqualTo("v1");
		write(app.writer(), OWN, "{\"shop\":{\"greeting\":\"v2\",\"owner\":{\"name\":\"zk\"}}}");
		ContextRefresher refresher = context.getBean(ContextRefresher.class);
		refresher.refresh();
		assertThat(context.getEnvironment().getProperty("shop.greeting")).isEqualTo("v2");
		assertThat(context.getEnvironment().getProperty("shop.owner.name")).isEqualTo("zk");
		refresher.refresh();
		assertThat(context.getEnvironment().getProperty("shop.greeting")).as("values stay after a second refresh")
			.isEqualTo("v2");
		assertThat(context.getBean(CuratorFramework.class)).isSameAs(client);
		assertThat(client.getZookeeperClient().getZooKeeper().getSessionId()).isEqualTo(session);
		assertThat(connections()).as("no second session is left open").isEqualTo(connections);
		assertThat(RecordingCuratorFrameworkCustomizer.applied.get()).as("no second client was built, even for a while")
			.isEqualTo(clients);
	}

	/** Open client connections the server counts (each session has one). */
	private static int connections() throws Exception {
		try (java.net.Socket socket = new java.net.Socket("127.0.0.1",
				Integer.parseInt(app.zk().connectString().substring(app.zk().connectString().lastIndexOf(':') + 1)))) {
			socket.getOutputStream().write("cons".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
			String cons = new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII);
			return (int) cons.lines().filter((line) -> line.contains("sid=")).count();
		}
	}

	private ConfigurableApplicationContext run(String... extra) {
		SpringApplication application = new SpringApplication(ShopConfiguration.class, CloudRefresh.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		List<String> args = new ArrayList<>(List.of("--spring.config.name=zk-config-tests", "--" + app.zk().connectProperty(),
				"--zk.config.snapshot-dir=" + app.snapshots(), "--zk.config.watch=false"));
		args.addAll(List.of(extra));
		return application.run(args.toArray(String[]::new));
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(RefreshAutoConfiguration.class)
	static class CloudRefresh {

	}

}
