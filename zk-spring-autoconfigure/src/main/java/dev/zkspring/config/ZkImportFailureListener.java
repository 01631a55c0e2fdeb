package dev.zkspring.config;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringApplicationRunListener;
import org.springframework.boot.bootstrap.ConfigurableBootstrapContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Closes the client (and embedded server) a {@code zk:} import started when the startup fails before
 * the application context took them over (another import failing, say): otherwise their threads
 * would keep the failed process alive. Registered in {@code META-INF/spring.factories}.
 */
final class ZkImportFailureListener implements SpringApplicationRunListener {

	private @Nullable ConfigurableBootstrapContext bootstrap;

	ZkImportFailureListener(SpringApplication application, String[] args) {
	}

	@Override
	public void starting(ConfigurableBootstrapContext bootstrapContext) {
		this.bootstrap = bootstrapContext;
	}

	@Override
	public void failed(@Nullable ConfigurableApplicationContext context, Throwable exception) {
		if (this.bootstrap != null && this.bootstrap.isRegistered(ConfigBootstrap.class)) {
			this.bootstrap.get(ConfigBootstrap.class).closeUnlessAttached();
		}
	}

	@Override
	public void ready(ConfigurableApplicationContext context, @Nullable Duration timeTaken) {
		this.bootstrap = null;
	}

}
