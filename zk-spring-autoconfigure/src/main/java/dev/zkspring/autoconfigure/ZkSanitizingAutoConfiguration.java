package dev.zkspring.autoconfigure;

import org.springframework.boot.actuate.endpoint.SanitizingFunction;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.ConfigurableEnvironment;

import dev.zkspring.actuate.EncryptedValuesInfoContributor;
import dev.zkspring.actuate.EncryptedValuesSanitizingFunction;

/**
 * With Boot's actuator on the class path, values kept encrypted in ZooKeeper are shown as their
 * ciphertext by the endpoints that show values with their property source ({@code env},
 * {@code configprops}, {@code zookeeper}), values that resolve through one as {@code ******}, and the
 * same for the {@code info.*} values Boot's environment info contributor shows.
 */
@AutoConfiguration(beforeName = "org.springframework.boot.actuate.autoconfigure.env.EnvironmentEndpointAutoConfiguration",
		afterName = "org.springframework.boot.actuate.autoconfigure.info.InfoContributorAutoConfiguration")
@ConditionalOnClass(SanitizingFunction.class)
@ConditionalOnBooleanProperty(name = "zk.enabled", matchIfMissing = true)
public final class ZkSanitizingAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	EncryptedValuesSanitizingFunction zkEncryptedValuesSanitizingFunction(ConfigurableEnvironment environment) {
		return new EncryptedValuesSanitizingFunction(environment);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBean(type = "org.springframework.boot.actuate.info.EnvironmentInfoContributor")
	static class InfoConfiguration {

		@Bean
		@ConditionalOnMissingBean
		EncryptedValuesInfoContributor zkEncryptedValuesInfoContributor(ConfigurableEnvironment environment) {
			return new EncryptedValuesInfoContributor(environment);
		}

	}

}
