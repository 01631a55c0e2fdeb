package dev.zkspring.refresh;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.zkspring.autoconfigure.ZkRefreshAutoConfiguration;
import dev.zkspring.config.ZkConfigApplier;

import static org.assertj.core.api.Assertions.assertThat;

/** When the refresh scope's beans exist, without starting ZooKeeper. */
class ZkRefreshAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZkRefreshAutoConfiguration.class));

	@Test
	void byDefaultTheRecorderRefresherListenerMethodsAndConsistentReadsAreRegistered() {
		this.runner.run((context) -> assertThat(context).hasSingleBean(RefreshTargetRecorder.class)
			.hasSingleBean(ZkRefresher.class)
			.hasSingleBean(ZkConfigListenerMethods.class)
			.hasSingleBean(ConsistentReads.class));
	}

	@Test
	void anApplierOfTheApplicationsOwnReplacesTheRefresher() {
		this.runner.withBean(ZkConfigApplier.class, () -> (candidate) -> candidate.swap())
			.run((context) -> assertThat(context).hasSingleBean(ZkConfigApplier.class)
				.doesNotHaveBean(ZkRefresher.class));
	}

	@Test
	void backsOffWhenZkTheConfigCenterOrTheRefreshScopeIsOff() {
		for (String off : new String[] { "zk.enabled=false", "zk.config.enabled=false", "zk.refresh.enabled=false" }) {
			this.runner.withPropertyValues(off)
				.run((context) -> assertThat(context).doesNotHaveBean(RefreshTargetRecorder.class)
					.doesNotHaveBean(ZkConfigApplier.class));
		}
	}

	@Test
	void backsOffWithoutCurator() {
		this.runner.withClassLoader(new FilteredClassLoader(CuratorFramework.class))
			.run((context) -> assertThat(context).doesNotHaveBean(RefreshTargetRecorder.class));
	}

}
