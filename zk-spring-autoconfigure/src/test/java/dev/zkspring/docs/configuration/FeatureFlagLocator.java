package dev.zkspring.docs.configuration;

import java.util.List;
import java.util.Map;

import org.apache.curator.framework.CuratorFramework;

import org.springframework.core.annotation.Order;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.PropertySource;

import dev.zkspring.config.PropertySourceLocator;

import static java.nio.charset.StandardCharsets.UTF_8;

/** docs/configuration.md, "Your own locator" (docs check: DocsSnippetsTests). */
// tag::locator[]
@Order(-1)
public class FeatureFlagLocator implements PropertySourceLocator {

	@Override
	public List<PropertySource<?>> locate(ConfigurableEnvironment environment, CuratorFramework client)
			throws Exception {
		byte[] flags = client.getData().forPath("/flags/" + environment.getProperty("spring.application.name"));
		return List.of(new MapPropertySource("flags", Map.of("features.beta", new String(flags, UTF_8))));
	}

}
// end::locator[]
