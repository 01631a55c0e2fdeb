package dev.zkspring.refresh;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.zkspring.config.ZkConfigApplier;
import dev.zkspring.config.ZkConfigChange;
import dev.zkspring.refresh.RefreshTestSupport.EventRecorder;
import dev.zkspring.test.ZkAppFixture;

import static dev.zkspring.refresh.RefreshTestSupport.WAIT;
import static dev.zkspring.refresh.RefreshTestSupport.ZNODE;
import static dev.zkspring.refresh.RefreshTestSupport.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Startup: warnings about what cannot be refreshed, listener methods, the switch. */
@ExtendWith(OutputCaptureExtension.class)
class RefreshScopeSetupTests {

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server(RefreshTestSupport::runner).cleaning("/config");

	@BeforeEach
	void setUp() throws Exception {
		write(app.writer(), ZNODE, "{'shop':{'greeting':'hi','title':'t'}}");
	}

	@Test
	void startupWarnsNamingTheBeanAndTheMembersThatCannotBeRefreshed(CapturedOutput output) {
		app.runner().withUserConfiguration(ConstructorInjected.class, FinalField.class, Greeting.class)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output).contains("@RefreshScope bean 'refreshScopeSetupTests.ConstructorInjected'")
					.contains("constructor parameter 'greeting'")
					.contains("@RefreshScope bean 'refreshScopeSetupTests.FinalField'")
					.contains("final field 'greeting'")
					.contains("@RefreshScope bean 'refreshScopeSetupTests.Greeting'")
					.contains("record components");
			});
	}

	@Test
	void aFullyRefreshableBeanCausesNoWarning(CapturedOutput output) {
		app.runner().withUserConfiguration(Listening.class).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(output).doesNotContain("@RefreshScope bean");
		});
	}

	@Test
	void listenerMethodsReceiveTheMatchingPartOfTheDiffAfterTheBeansWereRefreshed() throws Exception {
		app.runner().withUserConfiguration(Listening.class).run((context) -> {
			Listening listening = context.getBean(Listening.class);
			write(app.writer(), ZNODE, "{'shop':{'greeting':'hello','title':'t'},'other':'x'}");
			await().atMost(WAIT).until(() -> listening.all.size() == 1);
			assertThat(listening.byKey).singleElement()
				.isEqualTo(new ZkConfigChange("shop.greeting", ZkConfigChange.Type.CHANGED, "hi", "hello"));
			assertThat(listening.greetingSeenByListener).isEqualTo("hello");
			assertThat(listening.all.get(0).getKeys()).containsExactlyInAnyOrder("shop.greeting", "other");
			assertThat(listening.noArgumentCalls).isEqualTo(1);
			write(app.writer(), ZNODE, "{'shop':{'greeting':'hello','title':'t2'},'other':'x'}");
			await().atMost(WAIT).until(() -> listening.all.size() == 2);
			assertThat(listening.byKey).hasSize(1);
			assertThat(listening.noArgumentCalls).isEqualTo(2);
		});
	}

	@Test
	void aListenerMethodWithParametersItCannotBeGivenFailsTheStartup() {
		app.runner().withUserConfiguration(BadListener.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("@ZkConfigListener method 'changed'")
				.hasMessageContaining("List<ZkConfigChange>");
		});
	}

	@Test
	void withRefreshDisabledBeansKeepTheirValuesAndChangesStillReachTheEnvironment() throws Exception {
		app.runner().withUserConfiguration(Listening.class).withPropertyValues("zk.refresh.enabled=false")
			.run((context) -> {
				assertThat(context).doesNotHaveBean(ZkConfigApplier.class);
				write(app.writer(), ZNODE, "{'shop':{'greeting':'hello','title':'t'}}");
				await().atMost(WAIT)
					.until(() -> "hello".equals(context.getEnvironment().getProperty("shop.greeting")));
				assertThat(context.getBean(Listening.class).greeting).isEqualTo("hi");
				assertThat(context.getBean(EventRecorder.class).changes).hasSize(1);
			});
	}

	@RefreshScope
	static class ConstructorInjected {

		final String greeting;

		ConstructorInjected(@Value("${shop.greeting}") String greeting) {
			this.greeting = greeting;
		}

	}

	@RefreshScope
	static class FinalField {

		@Value("${shop.greeting}")
		private final String greeting = null;

	}

	@RefreshScope
	record Greeting(@Value("${shop.greeting}") String greeting) {

	}

	@RefreshScope
	static class Listening {

		final List<ZkConfigChange> byKey = new CopyOnWriteArrayList<>();

		final List<ZkRefreshedEvent> all = new CopyOnWriteArrayList<>();

		volatile int noArgumentCalls;

		volatile String greetingSeenByListener;

		@Value("${shop.greeting}")
		volatile String greeting;

		@ZkConfigListener(keys = "shop.greeting")
		void greetingChanged(List<ZkConfigChange> changes) {
			this.greetingSeenByListener = this.greeting;
			this.byKey.addAll(changes);
		}

		@ZkConfigListener
		void anythingChanged(ZkRefreshedEvent event) {
			this.all.add(event);
		}

		@ZkConfigListener(prefixes = "shop")
		void shopChanged() {
			this.noArgumentCalls++;
		}

	}

	static class BadListener {

		@ZkConfigListener
		void changed(String key) {
		}

	}

}
