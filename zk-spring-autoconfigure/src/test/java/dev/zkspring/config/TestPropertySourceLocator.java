package dev.zkspring.config;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.apache.curator.framework.CuratorFramework;

import org.springframework.core.annotation.Order;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.PropertySource;

/**
 * A user's own locator, registered through the test {@code META-INF/spring.factories}: reads a plain
 * text znode and wins over the JSON contexts. Only active with {@code test.locator.enabled=true}.
 */
@Order(-1)
public class TestPropertySourceLocator implements PropertySourceLocator {

	static final String ZNODE = "/custom/greeting";

	@Override
	public List<PropertySource<?>> locate(ConfigurableEnvironment environment, CuratorFramework client)
			throws Exception {
		if (!environment.getProperty("test.locator.enabled", Boolean.class, false)) {
			return List.of();
		}
		if (environment.getProperty("test.locator.fail", Boolean.class, false)) {
			// a user's locator whose message quotes a value it read
			throw new IllegalStateException("cannot parse '" + BadDocument.SECRET + "'");
		}
		if (client.checkExists().forPath(ZNODE) == null) {
			return List.of();
		}
		String greeting = new String(client.getData().forPath(ZNODE), StandardCharsets.UTF_8);
		return List.of(new MapPropertySource("test-locator", Map.of("shop.greeting", greeting)));
	}

}
