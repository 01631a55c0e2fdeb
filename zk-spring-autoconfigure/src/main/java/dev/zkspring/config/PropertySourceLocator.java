package dev.zkspring.config;

import java.util.List;

import org.apache.curator.framework.CuratorFramework;

import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.PropertySource;

/**
 * Where configuration comes from before any bean exists: the extension point of the config center.
 * Implementations are listed in {@code META-INF/spring.factories} under this interface's name, found
 * with {@code SpringFactoriesLoader} and ordered by {@code @Order} or {@link org.springframework.core.Ordered}:
 * a lower order wins over a higher one. The built-in JSON znode locator has order 0.
 * <p>
 * Locators are called once at startup and again, on the config center's one refresher thread, each
 * time a context znode under {@code zk.config.root} changes. A locator that throws at startup fails
 * it when {@code zk.config.fail-fast} is true; while running, its previous sources stay in force.
 */
@FunctionalInterface
public interface PropertySourceLocator {

	/**
	 * Return this locator's property sources, the highest precedence first.
	 * @param environment the application's environment (at startup, before the config center's
	 * sources are added to it)
	 * @param client the application's one started client; it may not be connected yet when the
	 * application started from a snapshot
	 * @return the sources, possibly empty
	 * @throws Exception when the sources cannot be read
	 */
	List<PropertySource<?>> locate(ConfigurableEnvironment environment, CuratorFramework client) throws Exception;

}
