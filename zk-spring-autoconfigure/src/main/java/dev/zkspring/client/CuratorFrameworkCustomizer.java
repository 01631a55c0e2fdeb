package dev.zkspring.client;

import org.apache.curator.framework.CuratorFrameworkFactory;

/**
 * Adjusts the client builder after zk-spring has applied {@code zk.*}, for settings the properties
 * do not cover. Beans of this type are applied in {@code @Order}.
 */
@FunctionalInterface
public interface CuratorFrameworkCustomizer {

	/**
	 * Customize the builder of the application's one client.
	 * @param builder the builder, already configured from {@code zk.*}
	 */
	void customize(CuratorFrameworkFactory.Builder builder);

}
