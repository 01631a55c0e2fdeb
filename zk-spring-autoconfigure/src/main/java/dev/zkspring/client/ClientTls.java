package dev.zkspring.client;

import java.nio.file.Files;
import java.nio.file.Path;

import org.apache.zookeeper.ClientCnxnSocketNetty;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.ClientX509Util;
import org.jspecify.annotations.Nullable;

/** Turns {@code zk.ssl.*} into the ZooKeeper client settings of a TLS connection over Netty. */
final class ClientTls {

	private ClientTls() {
	}

	/**
	 * A client config of its own per client, whose TLS settings come from {@code zk.ssl.*} only. ZooKeeper's
	 * {@code new ZKClientConfig()} copies {@code zookeeper.client.secure}, {@code zookeeper.clientCnxnSocket}
	 * and every {@code zookeeper.ssl.*} system property into the config; those are cleared again here, so a
	 * system property set for another ZooKeeper client of the JVM cannot change this one's transport.
	 * Other {@code zookeeper.*} system properties (SASL, {@code jute.maxbuffer}) still apply.
	 */
	static ZKClientConfig clientConfig(ZkClientSettings.Tls tls) {
		ZKClientConfig config = new ZKClientConfig();
		try (ClientX509Util x509 = new ClientX509Util()) {
			clearTransportSystemProperties(config, x509);
			if (!tls.enabled()) {
				return config;
			}
			if (!tls.hostnameVerification()) {
				throw new ZkStartupException("zk.ssl.hostname-verification=false cannot be honoured: the Netty TLS "
						+ "client under ZooKeeper's client always checks that the server's certificate names the host "
						+ "it connects to.",
						"Remove zk.ssl.hostname-verification and connect (zk.connect) by a host name or address that "
								+ "the server's certificate lists as a subject alternative name, or give the servers "
								+ "certificates that list the names clients use.");
			}
			config.setProperty(ZKClientConfig.SECURE_CLIENT, "true");
			config.setProperty(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET, ClientCnxnSocketNetty.class.getName());
			setStore(config, "zk.ssl.key-store", tls.keyStore(), x509.getSslKeystoreLocationProperty());
			setIfPresent(config, x509.getSslKeystorePasswdProperty(), tls.keyStorePassword());
			setIfPresent(config, x509.getSslKeystoreTypeProperty(), tls.keyStoreType());
			setStore(config, "zk.ssl.trust-store", tls.trustStore(), x509.getSslTruststoreLocationProperty());
			setIfPresent(config, x509.getSslTruststorePasswdProperty(), tls.trustStorePassword());
			setIfPresent(config, x509.getSslTruststoreTypeProperty(), tls.trustStoreType());
			config.setProperty(x509.getSslHostnameVerificationEnabledProperty(), "true");
		}
		return config;
	}

	private static void clearTransportSystemProperties(ZKClientConfig config, ClientX509Util x509) {
		for (String key : new String[] { ZKClientConfig.SECURE_CLIENT, ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET,
				x509.getSslProtocolProperty(), x509.getSslEnabledProtocolsProperty(),
				x509.getSslCipherSuitesProperty(), x509.getSslKeystoreLocationProperty(),
				x509.getSslKeystorePasswdProperty(), x509.getSslKeystorePasswdPathProperty(),
				x509.getSslKeystoreTypeProperty(), x509.getSslTruststoreLocationProperty(),
				x509.getSslTruststorePasswdProperty(), x509.getSslTruststorePasswdPathProperty(),
				x509.getSslTruststoreTypeProperty(), x509.getSslContextSupplierClassProperty(),
				x509.getSslHostnameVerificationEnabledProperty(), x509.getSslClientHostnameVerificationEnabledProperty(),
				x509.getSslAllowReverseDnsLookupProperty(), x509.getSslCrlEnabledProperty(), x509.getSslOcspEnabledProperty(), x509.getSslClientAuthProperty(),
				x509.getSslHandshakeDetectionTimeoutMillisProperty(), x509.getSslAuthProviderProperty(),
				x509.getSslProviderProperty(), x509.getFipsModeProperty() }) {
			if (config.getProperty(key) != null) {
				config.setProperty(key, null);
			}
		}
	}

	private static void setStore(ZKClientConfig config, String property, @Nullable Path store, String key) {
		if (store == null) {
			return;
		}
		if (!Files.isReadable(store)) {
			throw new ZkStartupException(property + " '" + store + "' does not exist or cannot be read.",
					"Point " + property + " at a readable key or trust store file (PKCS12 or JKS), "
							+ "or remove it to use the JVM's defaults.");
		}
		config.setProperty(key, store.toAbsolutePath().toString());
	}

	private static void setIfPresent(ZKClientConfig config, String key, @Nullable String value) {
		if (value != null) {
			config.setProperty(key, value);
		}
	}

}
