package dev.zkspring.autoconfigure;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.zkspring.actuate.ZkEndpoint;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;

class ZkEndpointAutoConfigurationTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class, ZkEndpointAutoConfiguration.class))
		.withPropertyValues(zk.connectProperty());

	@Test
	void registersTheEndpointWhenItIsExposed() {
		this.contextRunner.withPropertyValues("management.endpoints.web.exposure.include=zookeeper")
			.run((context) -> assertThat(context).hasSingleBean(ZkEndpoint.class));
	}

	@Test
	void backsOffWhenTheEndpointIsNotExposed() {
		this.contextRunner.run((context) -> assertThat(context).doesNotHaveBean(ZkEndpoint.class));
	}

	@Test
	void backsOffWhenTheEndpointIsDisabled() {
		this.contextRunner
			.withPropertyValues("management.endpoints.web.exposure.include=zookeeper",
					"management.endpoint.zookeeper.access=NONE")
			.run((context) -> assertThat(context).doesNotHaveBean(ZkEndpoint.class));
	}

	@Test
	void backsOffWithoutTheActuator() {
		this.contextRunner.withPropertyValues("management.endpoints.web.exposure.include=zookeeper")
			.withClassLoader(new FilteredClassLoader(Endpoint.class))
			.run((context) -> assertThat(context).doesNotHaveBean(ZkEndpoint.class));
	}

	@Test
	void backsOffWhenZkIsDisabled() {
		this.contextRunner.withPropertyValues("management.endpoints.web.exposure.include=zookeeper", "zk.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(ZkEndpoint.class));
	}

}
