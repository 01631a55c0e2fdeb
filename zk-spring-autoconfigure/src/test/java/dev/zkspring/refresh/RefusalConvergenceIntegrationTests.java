package dev.zkspring.refresh;

import jakarta.validation.constraints.AssertTrue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.validation.annotation.Validated;

import dev.zkspring.refresh.RefreshTestSupport.EventRecorder;
import dev.zkspring.test.ZkAppFixture;

import static dev.zkspring.refresh.RefreshTestSupport.WAIT;
import static dev.zkspring.refresh.RefreshTestSupport.ZNODE;
import static dev.zkspring.refresh.RefreshTestSupport.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A refused document is judged again on every reload: once a change elsewhere makes it valid, it applies. */
class RefusalConvergenceIntegrationTests {

	private static final String SHARED = "/config/application";

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server(RefreshTestSupport::runner).cleaning("/config")
		.with((runner) -> runner.withUserConfiguration(Enable.class));

	@Test
	void aRefusalResolvedByAChangeElsewhereIsAppliedSoTheAppMatchesZooKeeper() throws Exception {
		write(app.writer(), SHARED, "{'range':{'max':5}}");
		write(app.writer(), ZNODE, "{'range':{'min':1}}");
		app.runner().run((context) -> {
			Range range = context.getBean(Range.class);
			EventRecorder events = context.getBean(EventRecorder.class);
			write(app.writer(), ZNODE, "{'range':{'min':10}}");
			await().atMost(WAIT).until(() -> events.rejections.size() == 1);
			assertThat(events.rejections.get(0).getZnode()).isEqualTo(ZNODE);
			assertThat(range.getMin()).isEqualTo(1);
			// the shared context raises the bound: the held-back document is now valid and must apply
			write(app.writer(), SHARED, "{'range':{'max':20}}");
			await().atMost(WAIT).until(() -> range.getMin() == 10);
			assertThat(range.getMax()).isEqualTo(20);
			assertThat(context.getEnvironment().getProperty("range.min")).isEqualTo("10");
			assertThat(events.rejections).hasSize(1);
		});
		// what a restart would see is what the running application has
		app.runner().run((context) -> assertThat(context.getBean(Range.class).getMin()).isEqualTo(10));
	}

	@EnableConfigurationProperties(Range.class)
	static class Enable {

	}

	@RefreshScope
	@Validated
	@ConfigurationProperties("range")
	public static class Range {

		private int min;

		private int max = 100;

		public int getMin() {
			return this.min;
		}

		public void setMin(int min) {
			this.min = min;
		}

		public int getMax() {
			return this.max;
		}

		public void setMax(int max) {
			this.max = max;
		}

		@AssertTrue
		public boolean isOrdered() {
			return this.min <= this.max;
		}

	}

}
