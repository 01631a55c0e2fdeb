package dev.zkspring.autoconfigure;

import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ContextConsumer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.zkspring.actuate.EncryptedValuesSanitizingFunction;
import dev.zkspring.actuate.ZkEndpoint;
import dev.zkspring.actuate.ZkHealthIndicator;
import dev.zkspring.actuate.ZkMetrics;
import dev.zkspring.config.ZkConfigInitializer;
import dev.zkspring.fleet.ZkFleet;
import dev.zkspring.jobs.LeaderGatedSchedulerCustomizer;
import dev.zkspring.jobs.ZkJobs;
import dev.zkspring.leader.LeaderOnly;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.lock.ZkLock;
import dev.zkspring.lock.ZkLockTemplate;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No class path breaks startup (issue 38.1): an application with every auto-configuration on its class path
 * ({@code @EnableAutoConfiguration}, as a real one), started with each optional library hidden in turn and with
 * all of them hidden, starts; the features whose libraries are there exist and the others do not. Two shapes:
 * one that needs no leader (Spring's Petclinic: {@code spring-context-support} through the cache starter, no
 * Quartz), and one with a {@code @LeaderOnly} method, so the election and the leader-gated scheduler are decided.
 */
class ZkOptionalLibrariesTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withInitializer(new ZkConfigInitializer())
		.withUserConfiguration(Application.class)
		.withPropertyValues(zk.connectProperty(), "spring.application.name=libraries",
				"management.endpoints.web.exposure.include=zookeeper",
				"spring.quartz.properties.org.quartz.threadPool.threadCount=1");

	@BeforeAll
	static void publishTheApplicationsConfiguration() throws Exception {
		try (CuratorFramework client = zk.newClient()) {
			client.create()
				.creatingParentsIfNeeded()
				.forPath("/config/libraries", "{\"shop\":{\"greeting\":\"from zookeeper\"}}".getBytes(StandardCharsets.UTF_8));
		}
	}

	@Test
	void startsWithSpringContextSupportAndWithoutQuartz() {
		// Petclinic's class path: Could not find class [org.quartz.JobDetail] from the condition that decides to elect
		this.contextRunner.withClassLoader(new FilteredClassLoader("org.quartz"))
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(ZkLockTemplate.class)
				.doesNotHaveBean(ZkLeaderElection.class));
	}

	@ParameterizedTest
	@EnumSource
	void startsWithoutOneOptionalLibraryWhenNothingNeedsALeader(Library hidden) {
		this.contextRunner.withClassLoader(hiding(EnumSet.of(hidden))).run(features(EnumSet.of(hidden), false));
	}

	@ParameterizedTest
	@EnumSource
	void startsWithoutOneOptionalLibraryWithALeaderOnlyMethod(Library hidden) {
		this.contextRunner.withClassLoader(hiding(EnumSet.of(hidden)))
			.withUserConfiguration(LeaderOnlyConfiguration.class)
			.run(features(EnumSet.of(hidden), true));
	}

	@Test
	void startsWithoutAnyOptionalLibrary() {
		Set<Library> all = EnumSet.allOf(Library.class);
		this.contextRunner.withClassLoader(hiding(all)).run(features(all, false));
		this.contextRunner.withClassLoader(hiding(all))
			.withUserConfiguration(LeaderOnlyConfiguration.class)
			.run(features(all, true));
	}

	@Test
	void startsWithEveryOptionalLibrary() {
		Set<Library> none = EnumSet.noneOf(Library.class);
		this.contextRunner.run(features(none, false));
		this.contextRunner.withUserConfiguration(LeaderOnlyConfiguration.class).run(features(none, true));
	}

	private static HidingClassLoader hiding(Set<Library> libraries) {
		return new HidingClassLoader(
				libraries.stream().flatMap((library) -> library.packages.stream()).collect(Collectors.toSet()),
				libraries.stream().flatMap((library) -> library.jars.stream()).collect(Collectors.toSet()));
	}

	private static ContextConsumer<AssertableApplicationContext> features(Set<Library> hidden, boolean needsALeader) {
		return (context) -> {
			assertThat(context).hasNotFailed();
			// what needs only Curator and Jackson 3, on every class path
			assertThat(context).hasSingleBean(CuratorFramework.class)
				.hasSingleBean(ZkLockTemplate.class)
				.hasSingleBean(ZkFleet.class);
			assertThat(context.getEnvironment().getProperty("shop.greeting")).isEqualTo("from zookeeper");
			assertThat(context.getBean(Stock.class).reserve("sku-1")).isEqualTo("reserved sku-1");
			assertThat(context.getBeansOfType(ZkLeaderElection.class)).hasSize(needsALeader ? 1 : 0);
			boolean quartz = !hidden.contains(Library.QUARTZ) && !hidden.contains(Library.QUARTZ_AND_CONTEXT_SUPPORT);
			assertThat(context.getBeansOfType(LeaderGatedSchedulerCustomizer.class)).hasSize((needsALeader && quartz) ? 1 : 0);
			assertThat(context.getBeansOfType(ZkJobs.class)).hasSize((needsALeader && quartz) ? 1 : 0);
			boolean actuator = !hidden.contains(Library.ACTUATOR);
			assertThat(context.getBeansOfType(ZkEndpoint.class)).hasSize(actuator ? 1 : 0);
			assertThat(context.getBeansOfType(EncryptedValuesSanitizingFunction.class)).hasSize(actuator ? 1 : 0);
			assertThat(context.getBeansOfType(ZkHealthIndicator.class)).hasSize(hidden.contains(Library.HEALTH) ? 0 : 1);
			assertThat(context.getBeansOfType(ZkMetrics.class)).hasSize(hidden.contains(Library.MICROMETER) ? 0 : 1);
		};
	}

	/** The optional libraries, each named by the packages of its classes and the names of its jars. */
	enum Library {

		/** Spring's Petclinic: {@code spring-context-support} (through the cache starter) without Quartz. */
		QUARTZ(List.of("org.quartz"), List.of("quartz-")),

		QUARTZ_AND_CONTEXT_SUPPORT(
				List.of("org.quartz", "org.springframework.scheduling.quartz", "org.springframework.boot.quartz",
						"org.springframework.cache.caffeine", "org.springframework.cache.jcache",
						"org.springframework.cache.transaction", "org.springframework.mail", "org.springframework.ui.freemarker"),
				List.of("quartz-", "spring-context-support-", "spring-boot-quartz-")),

		ACTUATOR(List.of("org.springframework.boot.actuate"), List.of("spring-boot-actuator-")),

		HEALTH(List.of("org.springframework.boot.health"), List.of("spring-boot-health-")),

		MICROMETER(List.of("io.micrometer", "org.springframework.boot.micrometer"),
				List.of("micrometer-", "spring-boot-micrometer-")),

		WEB_MVC(List.of("org.springframework.web.servlet"), List.of("spring-webmvc-")),

		WEBFLUX(List.of("org.springframework.web.reactive"), List.of("spring-webflux-")),

		JDBC(List.of("org.springframework.jdbc", "org.h2"), List.of("spring-jdbc-", "h2-")),

		SPRING_CLOUD_CONTEXT(List.of("org.springframework.cloud"), List.of("spring-cloud-context-")),

		SPRING_SECURITY(List.of("org.springframework.security"), List.of("spring-security-")),

		/** Jackson 2 hidden; Jackson 3 (which zk-spring uses) stays, with the annotations both share. */
		JACKSON_2(List.of("com.fasterxml.jackson.core", "com.fasterxml.jackson.databind"),
				List.of("jackson-core-2", "jackson-databind-2")),

		BEAN_VALIDATION(List.of("jakarta.validation", "org.hibernate.validator"),
				List.of("jakarta.validation-api-", "hibernate-validator-"));

		private final List<String> packages;

		private final List<String> jars;

		Library(List<String> packages, List<String> jars) {
			this.packages = packages;
			this.jars = jars;
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class Application {

		@Bean
		Stock stock() {
			return new Stock();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class LeaderOnlyConfiguration {

		@Bean
		Reports reports() {
			return new Reports();
		}

	}

	public static class Stock {

		@ZkLock(key = "'stock:' + #sku")
		public String reserve(String sku) {
			return "reserved " + sku;
		}

	}

	public static class Reports {

		@LeaderOnly
		public void send() {
		}

	}

}
