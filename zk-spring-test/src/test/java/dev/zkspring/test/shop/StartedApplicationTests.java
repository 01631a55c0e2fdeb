package dev.zkspring.test.shop;

import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;

import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.test.ServeStartedApplications;
import dev.zkspring.test.ZkConfig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Applications a test starts itself, as Boot's smoke tests do: with {@link ServeStartedApplications} they use
 * the kit's server although application.yml names a port where nothing listens (without it each start would
 * wait its connection timeout and fail), read the class's documents, and the instances of one class share a
 * chroot — so they elect one leader between them.
 */
@ServeStartedApplications
@ZkConfig(context = "shop", json = "{\"shop\":{\"greeting\":\"from-started\",\"limits\":{\"max\":3}}}")
class StartedApplicationTests {

	private final List<ConfigurableApplicationContext> started = new java.util.ArrayList<>();

	@AfterEach
	void close() {
		this.started.forEach(ConfigurableApplicationContext::close);
	}

	private ConfigurableApplicationContext start() {
		SpringApplication application = new SpringApplication(ShopApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		ConfigurableApplicationContext context = application.run();
		this.started.add(context);
		return context;
	}

	@Test
	void twoStartedInstancesReadTheDocumentsQuicklyAndElectOneLeader() {
		ConfigurableApplicationContext first = start();
		ConfigurableApplicationContext second = start();
		for (ConfigurableApplicationContext context : List.of(first, second)) {
			assertThat(context.getEnvironment().getProperty("shop.greeting")).isEqualTo("from-started");
			assertThat(context.getBean(Greeter.class).greeting()).isEqualTo("from-started");
			assertThat(StartupTimes.of(context)).isLessThan(StartupTimes.BOUND);
		}
		List<ZkLeaderElection> elections = Stream.of(first, second).map((c) -> c.getBean(ZkLeaderElection.class)).toList();
		await().atMost(Duration.ofSeconds(10))
			.until(() -> elections.stream().filter(ZkLeaderElection::isLeader).count() == 1
					&& elections.get(0).participants().size() == 2);
	}

	@Test
	void aLaterStartKeepsAChangeMadeSinceTheFirstInsteadOfSeedingAgain() throws Exception {
		ConfigurableApplicationContext first = start();
		CuratorFramework client = first.getBean(CuratorFramework.class);
		String znode = "/config/shop";
		client.setData().forPath(znode, "{\"shop\":{\"greeting\":\"changed\"}}".getBytes());
		await().atMost(Duration.ofSeconds(10)).until(() -> first.getBean(Greeter.class).greeting().equals("changed"));
		ConfigurableApplicationContext later = start();
		assertThat(later.getBean(Greeter.class).greeting()).isEqualTo("changed");
	}

}
