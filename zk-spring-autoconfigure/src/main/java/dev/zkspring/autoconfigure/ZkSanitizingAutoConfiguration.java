package dev.zkspring.autoconfigure;

import org.springframework.boot.actuate.endpoint.SanitizingFunction;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import dev.zkspring.actuate.EncryptedValuesSanitizingFunction;

/**
 * With Boot's actuator on the class path, values kept encrypted in ZooKeeper are shown as their
 * ciphertext by the endpoints that show values with their property source ({@code env}, {@code zookeeper}).
 */
@AutoConfiguration(beforeName = "org.springframework.boot.actuate.autoconfigure.env.EnvironmentEndpointAutoConfiguration")
@ConditionalOnClass(SanitizingFunction.class)
@ConditionalOnBooleanProperty(name = "zk.enabled", matchIfMissing = true)
public final class ZkSanitizingAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	EncryptedValuesSanitizingFunction zkEncryptedValuesSanitizingFunction() {
		return new EncryptedValuesSanitizingFunction();
	}

}
