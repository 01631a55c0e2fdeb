package dev.zkspring.test;

import java.nio.file.Path;
import java.util.function.BiFunction;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.context.PropertyPlaceholderAutoConfiguration;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.zkspring.autoconfigure.ZkFleetAutoConfiguration;
import dev.zkspring.autoconfigure.ZkRefreshAutoConfiguration;
import dev.zkspring.refresh.RefreshScope;

/**
 * One instance of the application the fleet and canary tests start several of: as SpringApplication
 * would (Boot's conversion service, placeholders), with the refresh scope and its fleet node, so the
 * tests see what each instance runs. A {@link ZkAppFixture} kind: {@code ZkAppFixture.server(MemberApp.runner())}.
 */
public final class MemberApp {

	private MemberApp() {
	}

	/** The member application, with these auto-configurations as well (leader, lock...). */
	public static BiFunction<ZooKeeperExtension, Path, ApplicationContextRunner> runner(Class<?>... more) {
		return (zk, snapshots) -> ZkAppFixture.app(PropertyPlaceholderAutoConfiguration.class,
				ZkRefreshAutoConfiguration.class, ZkFleetAutoConfiguration.class)
			.apply(zk, snapshots)
			.withInitializer((context) -> context.getBeanFactory()
				.setConversionService(ApplicationConversionService.getSharedInstance()))
			.withConfiguration(AutoConfigurations.of(more));
	}

	/** What a member's configuration says, refreshed in place: the limit and the greeting of the shop. */
	@RefreshScope
	public static class Shop {

		@Value("${shop.limit}")
		public int limit;

		@Value("${shop.greeting}")
		public String greeting;

	}

}
