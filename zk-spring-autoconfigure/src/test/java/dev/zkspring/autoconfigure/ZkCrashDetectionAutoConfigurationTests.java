package dev.zkspring.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.zkspring.crash.CrashDetector;
import dev.zkspring.fleet.ZkFleet;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class ZkCrashDetectionAutoConfigurationTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class, ZkLockAutoConfiguration.class,
				ZkCrashDetectionAutoConfiguration.class, ZkFleetAutoConfiguration.class))
		.withPropertyValues(zk.connectProperty(), "spring.application.name=crash-app");

	@Test
	void listensByDefaultAndCountsDeathsWithMicrometer() {
		this.contextRunner.run((context) -> {
			CrashDetector detector = context.getBean(CrashDetector.class);
			assertThat(detector.isRunning()).isTrue();
			assertThat(detector.address()).isNotNull();
			assertThat(detector.address().getPort()).isPositive();
			MeterRegistry registry = new SimpleMeterRegistry();
			context.getBeansOfType(MeterBinder.class).values().forEach((binder) -> binder.bindTo(registry));
			assertThat(registry.find("zk.crash.deaths").functionCounter()).isNotNull();
			assertThat(registry.find("zk.crash.sessions.ended").functionCounter()).isNotNull();
		});
	}

	@Test
	@SuppressWarnings("unchecked")
	void theFleetViewShowsEachInstancesDetectorState() {
		this.contextRunner.run((context) -> {
			CrashDetector detector = context.getBean(CrashDetector.class);
			ZkFleet fleet = context.getBean(ZkFleet.class);
			await().atMost(Duration.ofSeconds(5)).until(() -> fleet.instances().size() == 1
					&& fleet.instances().get(0).containsKey("crashDetection"));
			Map<String, Object> state = (Map<String, Object>) fleet.instances().get(0).get("crashDetection");
			assertThat(state).containsEntry("state", "LISTENING")
				.containsEntry("address", detector.address().getHostString() + ":" + detector.address().getPort())
				.containsEntry("watching", List.of())
				.containsEntry("deathsDetected", 0L);
		});
	}

	@Test
	void listensOnTheConfiguredAddressAndPublishesIt() {
		this.contextRunner.withPropertyValues("zk.crash-detection.address=127.0.0.1").run((context) -> {
			assertThat(context.getBean(CrashDetector.class).address().getHostString()).isEqualTo("127.0.0.1");
		});
	}

	@Test
	void withoutMicrometerTheDetectorStillRuns() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(MeterRegistry.class)).run((context) -> {
			assertThat(context).hasSingleBean(CrashDetector.class);
			assertThat(context).doesNotHaveBean("zkCrashDetectionMeters");
		});
	}

	@Test
	void backsOffWhenDisabled() {
		this.contextRunner.withPropertyValues("zk.crash-detection.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(CrashDetector.class).hasSingleBean(ZkFleet.class));
	}

	@Test
	void refusesAPortOutOfRangeNamingTheProperty() {
		this.contextRunner.withPropertyValues("zk.crash-detection.port=70000")
			.run((context) -> assertThat(context).getFailure().rootCause().hasMessageContaining("zk.crash-detection.port"));
	}

}
