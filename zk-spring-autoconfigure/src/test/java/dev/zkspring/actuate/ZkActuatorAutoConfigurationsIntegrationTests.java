package dev.zkspring.actuate;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration;
import org.springframework.boot.health.autoconfigure.registry.HealthContributorRegistryAutoConfiguration;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.health.registry.HealthContributorRegistry;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.autoconfigure.ZkEndpointAutoConfiguration;
import dev.zkspring.autoconfigure.ZkHealthContributorAutoConfiguration;
import dev.zkspring.autoconfigure.ZkLeaderAutoConfiguration;
import dev.zkspring.autoconfigure.ZkLockAutoConfiguration;
import dev.zkspring.autoconfigure.ZkMetricsAutoConfiguration;
import dev.zkspring.config.ZkConfigInitializer;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;

/** Health, endpoint and metrics together, with Boot's health registry naming the contributor. */
class ZkActuatorAutoConfigurationsIntegrationTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@TempDir
	Path snapshots;

	@Test
	void bootsHealthRegistryListsTheContributorAsZookeeperAndTheThreePartsShareOneConfigRecord() {
		new ApplicationContextRunner().withInitializer(new ZkConfigInitializer())
			.withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class, ZkLeaderAutoConfiguration.class,
					ZkLockAutoConfiguration.class, ZkHealthContributorAutoConfiguration.class,
					ZkEndpointAutoConfiguration.class, ZkMetricsAutoConfiguration.class,
					HealthContributorAutoConfiguration.class, HealthContributorRegistryAutoConfiguration.class))
			.withPropertyValues(zk.connectProperty(), "zk.config.snapshot-dir=" + this.snapshots,
					"spring.application.name=orders", "management.endpoints.web.exposure.include=health,zookeeper")
			.run((context) -> {
				assertThat(context).hasNotFailed()
					.hasSingleBean(ZkConfigActivity.class)
					.hasSingleBean(ZkEndpoint.class)
					.hasSingleBean(ZkMetrics.class);
				HealthIndicator zookeeper = (HealthIndicator) context.getBean(HealthContributorRegistry.class)
					.getContributor("zookeeper");
				assertThat(zookeeper).isSameAs(context.getBean(ZkHealthIndicator.class));
				assertThat(zookeeper.health().getStatus()).isEqualTo(Status.UP);
				assertThat(context.getBean(ZkEndpoint.class).zookeeper(SecurityContext.NONE))
					.containsEntry("connected", true);
			});
	}

}
