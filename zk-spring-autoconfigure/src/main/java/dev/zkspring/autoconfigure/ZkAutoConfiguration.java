package dev.zkspring.autoconfigure;

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
import dev.zkspring.client.ZkConnectionDetails;
import dev.zkspring.client.ZkConnectionStateEventPublisher;
import dev.zkspring.embedded.EmbeddedZooKeeper;

/**
 * The application's one started {@link CuratorFramework}, connected to {@code zk.connect} or to the
 * embedded server, closed with the context. Backs off when the application (or zk-spring's config
 * initializer) has registered a client already.
 */
@AutoConfiguration
@ConditionalOnClass(CuratorFramework.class)
@ConditionalOnBooleanProperty(name = "zk.enabled", matchIfMissing = true)
@EnableConfigurationProperties(ZkProperties.class)
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

	static CuratorFramework startedClient(ZkProperties properties, @Nullable String connectString,
			ObjectProvider<CuratorFrameworkCustomizer> customizers) {
		CuratorFramework client = ZkClientFactory.create(properties.toClientSettings(), connectString,
				customizers.orderedStream().toList());
		ZkClientFactory.start(client, properties.getConnectionTimeout());
		return client;
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBooleanProperty(name = "zk.embedded.enabled", havingValue = false, matchIfMissing = true)
	static class EnsembleClientConfiguration {

		@Bean(destroyMethod = "close")
		@ConditionalOnMissingBean
		CuratorFramework curatorFramework(ZkProperties properties, ObjectProvider<ZkConnectionDetails> connectionDetails,
				ObjectProvider<CuratorFrameworkCustomizer> customizers) {
			ZkConnectionDetails details = connectionDetails.getIfAvailable();
			return startedClient(properties, (details != null) ? details.getConnectString() : properties.getConnect(),
					customizers);
		}

	}

	/** The client depends on the server bean, so the context closes the client first. */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBooleanProperty("zk.embedded.enabled")
	static class EmbeddedServerClientConfiguration {

		@Bean(destroyMethod = "close")
		@ConditionalOnMissingBean
		EmbeddedZooKeeper zkEmbeddedServer(ZkProperties properties, ConfigurableEnvironment environment) {
			ZkProperties.Embedded embedded = properties.getEmbedded();
			EmbeddedZooKeeper server = EmbeddedZooKeeper.start(embedded.getPort(), embedded.getDataDir());
			server.publishConnectString(environment);
			return server;
		}

		@Bean(destroyMethod = "close")
		@ConditionalOnMissingBean
		CuratorFramework curatorFramework(ZkProperties properties, EmbeddedZooKeeper server,
				ObjectProvider<CuratorFrameworkCustomizer> customizers) {
			return startedClient(properties, server.connectString(), customizers);
		}

	}

}
