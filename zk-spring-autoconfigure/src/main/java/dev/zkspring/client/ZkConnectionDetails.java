package dev.zkspring.client;

import org.springframework.boot.autoconfigure.service.connection.ConnectionDetails;

/**
 * Where the ensemble is, as a bean that wins over {@code zk.connect}: the seam a container, a test kit
 * or a service registry plugs into, as Spring Boot's {@code *ConnectionDetails} do for databases. The
 * other client settings (timeouts, auth, TLS, namespace) stay in {@code zk.*}.
 * <p>
 * The config center builds its client before any bean exists. It uses connection details registered
 * by then: in the application context before refresh (a test's {@code ContextCustomizer}, an
 * {@code ApplicationContextInitializer}) or, for {@code spring.config.import=zk:}, in Boot's
 * {@code BootstrapRegistry}. Details defined only as a {@code @Bean} come too late for it: the startup
 * then fails saying so (set {@code zk.connect} instead, for example from {@code @DynamicPropertySource}).
 */
@FunctionalInterface
public interface ZkConnectionDetails extends ConnectionDetails {

	/** The ensemble, as {@code host:port[,host:port...][/chroot]}. */
	String getConnectString();

}
