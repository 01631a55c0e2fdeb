package dev.zkspring.refresh;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.zkspring.config.ZkConfigChange;
import dev.zkspring.refresh.RefreshTestSupport.EventRecorder;
import dev.zkspring.test.ZkAppFixture;

import static dev.zkspring.refresh.RefreshTestSupport.WAIT;
import static dev.zkspring.refresh.RefreshTestSupport.ZNODE;
import static dev.zkspring.refresh.RefreshTestSupport.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** What cannot be refreshed is said at startup; listener keys match by Boot's relaxed names. */
@ExtendWith(OutputCaptureExtension.class)
class RefreshDiagnosticsIntegrationTests {

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server(RefreshTestSupport::runner).cleaning("/config");

	@BeforeEach
	void setUp() throws Exception {
		write(app.writer(), ZNODE,
				"{'shop':{'greeting':'hi','maxItems':3,'items':['a'],'hosts':{'db.example.com':{'port':1}}}}");
	}

	@Test
	void aValueOnABeanMethodParameterOfARefreshScopedBeanIsNamedInAStartupWarning(CapturedOutput output) {
		app.runner().withUserConfiguration(BeanMethodConfiguration.class).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(output).contains("@RefreshScope bean 'greeter'")
				.contains("parameter 'greeting' of @Bean method 'greeter'");
		});
	}

	@Test
	void aFluentValueSetterIsNamedInAStartupWarning(CapturedOutput output) {
		app.runner().withBean("fluent", Fluent.class, Fluent::new).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(output).contains("@RefreshScope bean 'fluent'").contains("method 'greeting' (it returns Fluent");
		});
	}

	@Test
	void listenerKeysMatchRelaxedNamesAndListIndices() throws Exception {
		app.runner().withBean("listener", Listener.class, Listener::new).run((context) -> {
			Listener listener = context.getBean(Listener.class);
			EventRecorder events = context.getBean(EventRecorder.class);
			write(app.writer(), ZNODE,
					"{'shop':{'greeting':'hi','maxItems':4,'items':['b'],'hosts':{'db.example.com':{'port':2}}}}");
			await().atMost(WAIT).until(() -> events.refreshes.size() == 1);
			await().atMost(WAIT).until(() -> listener.byKey.size() == 1 && listener.byIndex.size() == 1
					&& listener.byPath.size() == 1 && listener.byMapKey.size() == 1);
			assertThat(listener.byKey.get(0)).extracting(ZkConfigChange::key).containsExactly("shop.maxItems");
			assertThat(listener.byIndex.get(0)).extracting(ZkConfigChange::key).containsExactly("shop.items[0]");
			// a dotted name inside an object is one map key; a listener may name it either way
			assertThat(listener.byPath.get(0)).extracting(ZkConfigChange::key)
				.containsExactly("shop.hosts[db.example.com].port");
			assertThat(listener.byMapKey.get(0)).extracting(ZkConfigChange::key)
				.containsExactly("shop.hosts[db.example.com].port");
			assertThat(listener.byPrefix.get(0)).extracting(ZkConfigChange::key)
				.containsExactlyInAnyOrder("shop.maxItems", "shop.items[0]", "shop.hosts[db.example.com].port");
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class BeanMethodConfiguration {

		@Bean
		@RefreshScope
		Greeter greeter(@Value("${shop.greeting}") String greeting) {
			return new Greeter(greeting);
		}

	}

	record Greeter(String greeting) {

	}

	@RefreshScope
	static class Fluent {

		volatile String greeting;

		@Value("${shop.greeting}")
		Fluent greeting(String greeting) {
			this.greeting = greeting;
			return this;
		}

	}

	static class Listener {

		final List<List<ZkConfigChange>> byKey = new CopyOnWriteArrayList<>();

		final List<List<ZkConfigChange>> byIndex = new CopyOnWriteArrayList<>();

		final List<List<ZkConfigChange>> byPrefix = new CopyOnWriteArrayList<>();

		final List<List<ZkConfigChange>> byPath = new CopyOnWriteArrayList<>();

		final List<List<ZkConfigChange>> byMapKey = new CopyOnWriteArrayList<>();

		@ZkConfigListener(keys = "shop.hosts.db.example.com.port")
		void hostByPath(List<ZkConfigChange> changes) {
			this.byPath.add(changes);
		}

		@ZkConfigListener(keys = "shop.hosts[db.example.com].port")
		void hostByMapKey(List<ZkConfigChange> changes) {
			this.byMapKey.add(changes);
		}

		@ZkConfigListener(keys = "shop.max-items")
		void maxItems(List<ZkConfigChange> changes) {
			this.byKey.add(changes);
		}

		@ZkConfigListener(keys = "shop.items[0]")
		void firstItem(List<ZkConfigChange> changes) {
			this.byIndex.add(changes);
		}

		@ZkConfigListener(prefixes = "SHOP")
		void shop(List<ZkConfigChange> changes) {
			this.byPrefix.add(changes);
		}

	}

}
