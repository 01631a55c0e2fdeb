package dev.zkspring.client;

import java.nio.file.Files;
import java.nio.file.Path;

import org.apache.zookeeper.ClientCnxnSocketNetty;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.ClientX509Util;
import org.jspecify.annotations.Nullable;

import dev.zkspring.autoconfigure.ZkProperties;

/** Turns {@code zk.ssl.*} into the ZooKeeper client settings of a TLS connection over Netty. */
final class ClientTls {

	private ClientTls() {
	}

	/** A client config of its own per client, so no TLS setting leaks through system properties. */
	static ZKClientConfig clientConfig(ZkProperties.Ssl ssl) {
		ZKClientConfig config = new ZKClientConfig();
		if (!ssl.isEnabled()) {
			return config;
		}
		config.setProperty(ZKClientConfig.SECURE_CLIENT, "true");
		config.setProperty(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET, ClientCnxnSocketNetty.class.getName());
		try (ClientX509Util x509 = new ClientX509Util()) {
			setStore(config, "zk.ssl.key-store", ssl.getKeyStore(), x509.getSslKeystoreLocationProperty());
			setIfPresent(config, x509.getSslKeystorePasswdProperty(), ssl.getKeyStorePassword());
			setIfPresent(config, x509.getSslKeystoreTypeProperty(), ssl.getKeyStoreType());
			setStore(config, "zk.ssl.trust-store", ssl.getTrustStore(), x509.getSslTruststoreLocationProperty());
			setIfPresent(config, x509.getSslTruststorePasswdProperty(), ssl.getTrustStorePassword());
			setIfPresent(config, x509.getSslTruststoreTypeProperty(), ssl.getTrustStoreType());
			config.setProperty(x509.getSslHostnameVerificationEnabledProperty(),
					String.valueOf(ssl.isHostnameVerification()));
		}
		return config;
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
