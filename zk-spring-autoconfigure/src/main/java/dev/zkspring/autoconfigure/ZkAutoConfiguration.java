package dev.zkspring.autoconfigure;

import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.ConfigurableEnvironment;

import dev.zkspring.client.CuratorFrameworkCustomizer;
import dev.zkspring.client.SessionLease;
import dev.zkspring.client.ZkClientFactory;
import dev.zkspring.client.ZkClientProperties;
import dev.zkspring.client.ZkConnectionDetails;
import dev.zkspring.client.ZkConnectionStateEventPublisher;
import dev.zkspring.config.ZkConfigProperties;
import dev.zkspring.embedded.EmbeddedZooKeeper;
import dev.zkspring.embedded.ZkEmbeddedProperties;
import dev.zkspring.leader.ZkLeaderProperties;
import dev.zkspring.lock.ZkLockProperties;
import dev.zkspring.publish.ConfigCanaries;
import dev.zkspring.publish.ConfigPublisher;

/**
 * The application's one started {@link CuratorFramework}, connected to {@code zk.connect} or to the
 * embedded server, closed with the context. Backs off when the application (or zk-spring's config
 * initializer) has registered a client already.
 */
@AutoConfiguration
@ConditionalOnClass(CuratorFramework.class)
@ConditionalOnBooleanProperty(name = "zk.enabled", matchIfMissing = true)
@EnableConfigurationProperties({ ZkClientProperties.class, ZkEmbeddedProperties.class, ZkConfigProperties.class,
		ZkLockProperties.class, ZkLeaderProperties.class })
public final class ZkAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ZkConnectionStateEventPublisher zkConnectionStateEventPublisher(CuratorFramework client,
			ApplicationEventPublisher publisher) {
		return new ZkConnectionStateEventPublisher(client, publisher);
	}

	/** The one session lease of the client, shared by locks and leadership (closed before the client). */
	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	SessionLease zkSessionLease(CuratorFramework client) {
		return SessionLease.start(client);
	}

	/**
	 * Publishing from inside the application (an admin endpoint, a migration) with the instances' own root and
	 * size limit: the tool's compare-and-set and history, observed as {@code zk.config.publish} when the
	 * application has an {@code ObservationRegistry}.
	 */
	@Bean
	@ConditionalOnMissingBean
	ConfigPublisher zkConfigPublisher(CuratorFramework client, ZkConfigProperties config) {
		return new ConfigPublisher(client, config.getRoot(), config.getMaxDocumentSize().toBytes());
	}

	/** Canary releases from inside the application, as {@link #zkConfigPublisher} publishes. */
	@Bean
	@ConditionalOnMissingBean
	ConfigCanaries zkConfigCanaries(CuratorFramework client, ZkConfigProperties config) {
		return new ConfigCanaries(client, config.getRoot(), config.getMaxDocumentSize().toBytes());
	}

	static CuratorFramework startedClient(ZkClientProperties properties, ZkLockProperties lock, ZkLeaderProperties leader,
			@Nullable String connectString, ObjectProvider<CuratorFrameworkCustomizer> customizers) {
		CuratorFramework client = ZkClientFactory.create(properties.toClientSettings(recordRoots(lock, leader)),
				connectString, customizers.orderedStream().toList());
		ZkClientFactory.start(client, properties.getConnectionTimeout());
		return client;
	}

	/** Below these a repair of ACLs removes what others created (holder nodes, records) instead of adopting it. */
	static List<String> recordRoots(ZkLockProperties lock, ZkLeaderProperties leader) {
		return List.of(lock.getRoot(), leader.getRoot());
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBooleanProperty(name = "zk.embedded.enabled", havingValue = false, matchIfMissing = true)
	static class EnsembleClientConfiguration {

		@Bean(destroyMethod = "close")
		@ConditionalOnMissingBean
		CuratorFramework curatorFramework(ZkClientProperties properties, ZkLockProperties lock,
				ZkLeaderProperties leader, ObjectProvider<ZkConnectionDetails> connectionDetails,
				ObjectProvider<CuratorFrameworkCustomizer> customizers) {
			ZkConnectionDetails details = connectionDetails.getIfAvailable();
			return startedClient(properties, lock, leader,
					(details != null) ? details.getConnectString() : properties.getConnect(), customizers);
		}

	}

	/** The client depends on the server bean, so the context closes the client first. */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBooleanProperty("zk.embedded.enabled")
	static class EmbeddedServerClientConfiguration {

		@Bean(destroyMethod = "close")
		@ConditionalOnMissingBean
		EmbeddedZooKeeper zkEmbeddedServer(ZkEmbeddedProperties embedded, ConfigurableEnvironment environment) {
			EmbeddedZooKeeper server = EmbeddedZooKeeper.start(embedded.getPort(), embedded.getDataDir());
			server.publishConnectString(environment);
			return server;
		}

		@Bean(destroyMethod = "close")
		@ConditionalOnMissingBean
		CuratorFramework curatorFramework(ZkClientProperties properties, ZkLockProperties lock,
				ZkLeaderProperties leader, EmbeddedZooKeeper server, ObjectProvider<CuratorFrameworkCustomizer> customizers) {
			return startedClient(properties, lock, leader, server.connectString(), customizers);
		}

	}

}
