package dev.zkspring.refresh;

import java.util.concurrent.atomic.AtomicInteger;

import jakarta.annotation.PostConstruct;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.beans.factory.annotation.Value;

import dev.zkspring.refresh.RefreshTestSupport.EventRecorder;
import dev.zkspring.test.ZkAppFixture;

import static dev.zkspring.refresh.RefreshTestSupport.WAIT;
import static dev.zkspring.refresh.RefreshTestSupport.ZNODE;
import static dev.zkspring.refresh.RefreshTestSupport.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Init callbacks run again after a refresh changed a bean's fields, whether they are {@code @Value}
 * members or bound properties: state derived from them follows, as after a re-creation.
 */
class InitCallbacksRefreshIntegrationTests {

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server(RefreshTestSupport::runner).cleaning("/config");

	@Test
	void derivedStateOfAValueBeanFollowsAChangeOfItsFields() throws Exception {
		write(app.writer(), ZNODE, "{'shop':{'greeting':'hi','name':'ann'},'other':'1'}");
		app.runner().withUserConfiguration(Banner.class).run((context) -> {
			Banner banner = context.getBean(Banner.class);
			assertThat(banner.banner).isEqualTo("HI ANN");
			assertThat(banner.initialized.get()).isEqualTo(1);
			assertThat(banner.afterPropertiesSet.get()).isEqualTo(1);
			EventRecorder events = context.getBean(EventRecorder.class);
			write(app.writer(), ZNODE, "{'shop':{'greeting':'hello','name':'bob'},'other':'1'}");
			await().atMost(WAIT).until(() -> events.refreshes.size() == 1);
			assertThat(banner.banner).isEqualTo("HELLO BOB");
			// once per refresh, however many of its fields changed
			assertThat(banner.initialized.get()).isEqualTo(2);
			assertThat(banner.afterPropertiesSet.get()).isEqualTo(2);
			// a change that writes none of its fields does not call it
			write(app.writer(), ZNODE, "{'shop':{'greeting':'hello','name':'bob'},'other':'2'}");
			await().atMost(WAIT).until(() -> events.refreshes.size() == 2);
			assertThat(banner.initialized.get()).isEqualTo(2);
		});
	}

	@RefreshScope
	static class Banner implements InitializingBean {

		final AtomicInteger initialized = new AtomicInteger();

		final AtomicInteger afterPropertiesSet = new AtomicInteger();

		@Value("${shop.greeting}")
		String greeting;

		@Value("${shop.name}")
		String name;

		volatile String banner;

		@PostConstruct
		void derive() {
			this.banner = (this.greeting + " " + this.name).toUpperCase();
			this.initialized.incrementAndGet();
		}

		@Override
		public void afterPropertiesSet() {
			this.afterPropertiesSet.incrementAndGet();
		}

	}

}
