package dev.zkspring.refresh;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.zkspring.refresh.RefreshTestSupport.EventRecorder;
import dev.zkspring.test.ZkAppFixture;

import static dev.zkspring.refresh.RefreshTestSupport.WAIT;
import static dev.zkspring.refresh.RefreshTestSupport.ZNODE;
import static dev.zkspring.refresh.RefreshTestSupport.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A rebind starts from the bean as it is and writes only the properties whose sources changed; a key
 * removed from ZooKeeper returns its property to what the bean had before Boot bound it (the value its
 * {@code @Bean} method set, else the field's default), or to a lower source's value.
 */
class PropertiesBaselineIntegrationTests {

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server(RefreshTestSupport::runner).cleaning("/config");

	@Test
	void aValueSetByTheBeanMethodSurvivesAChangeOfAnUnrelatedKey() throws Exception {
		write(app.writer(), ZNODE, "{'x':{'name':'a'}}");
		app.runner().withUserConfiguration(BeanMethod.class).run((context) -> {
			Props props = context.getBean(Props.class);
			assertThat(props.getTimeout()).isEqualTo(Duration.ofSeconds(42));
			EventRecorder events = context.getBean(EventRecorder.class);
			write(app.writer(), ZNODE, "{'x':{'name':'b'}}");
			await().atMost(WAIT).until(() -> events.refreshes.size() == 1);
			assertThat(props.getName()).isEqualTo("b");
			assertThat(props.getTimeout()).isEqualTo(Duration.ofSeconds(42));
			assertThat(events.refreshes.get(0).getTargets()).singleElement()
				.satisfies((target) -> assertThat(target).endsWith("property 'name'"));
		});
	}

	@Test
	void aRemovedKeyReturnsThePropertyToTheValueTheBeanMethodSet() throws Exception {
		write(app.writer(), ZNODE, "{'x':{'name':'a','timeout':'10s'}}");
		app.runner().withUserConfiguration(BeanMethod.class).run((context) -> {
			Props props = context.getBean(Props.class);
			assertThat(props.getTimeout()).isEqualTo(Duration.ofSeconds(10));
			EventRecorder events = context.getBean(EventRecorder.class);
			write(app.writer(), ZNODE, "{'x':{'name':'a','timeout':'20s'}}");
			await().atMost(WAIT).until(() -> events.refreshes.size() == 1);
			assertThat(props.getTimeout()).isEqualTo(Duration.ofSeconds(20));
			write(app.writer(), ZNODE, "{'x':{'name':'a'}}");
			await().atMost(WAIT).until(() -> events.refreshes.size() == 2);
			assertThat(props.getTimeout()).isEqualTo(Duration.ofSeconds(42));
		});
	}

	@Test
	void aRemovedKeyReturnsThePropertyToItsFieldDefaultWithoutABeanMethod() throws Exception {
		write(app.writer(), ZNODE, "{'x':{'name':'a','timeout':'10s'}}");
		app.runner().withUserConfiguration(Component.class).run((context) -> {
			Props props = context.getBean(Props.class);
			assertThat(props.getTimeout()).isEqualTo(Duration.ofSeconds(10));
			EventRecorder events = context.getBean(EventRecorder.class);
			write(app.writer(), ZNODE, "{'x':{'name':'a'}}");
			await().atMost(WAIT).until(() -> events.refreshes.size() == 1);
			assertThat(props.getTimeout()).isEqualTo(Duration.ofSeconds(5));
		});
	}

	@Test
	void aValueTheApplicationSetAtRuntimeSurvivesAChangeOfAnotherProperty() throws Exception {
		write(app.writer(), ZNODE, "{'x':{'name':'a','mode':'auto'}}");
		app.runner().withUserConfiguration(BeanMethod.class).run((context) -> {
			Props props = context.getBean(Props.class);
			props.setMode("manual");
			EventRecorder events = context.getBean(EventRecorder.class);
			write(app.writer(), ZNODE, "{'x':{'name':'b','mode':'auto'}}");
			await().atMost(WAIT).until(() -> events.refreshes.size() == 1);
			assertThat(props.getName()).isEqualTo("b");
			assertThat(props.getMode()).isEqualTo("manual");
			// its own key changing does write it
			write(app.writer(), ZNODE, "{'x':{'name':'b','mode':'eco'}}");
			await().atMost(WAIT).until(() -> events.refreshes.size() == 2);
			assertThat(props.getMode()).isEqualTo("eco");
		});
	}

	@Test
	void aNestedValueSetByTheBeanMethodSurvivesAndReturnsWhenItsKeyIsRemoved() throws Exception {
		write(app.writer(), ZNODE, "{'x':{'name':'a','limits':{'max':9}}}");
		app.runner().withUserConfiguration(BeanMethod.class).run((context) -> {
			Props props = context.getBean(Props.class);
			assertThat(props.getLimits().getMax()).isEqualTo(9);
			assertThat(props.getLimits().getMin()).isEqualTo(2);
			EventRecorder events = context.getBean(EventRecorder.class);
			write(app.writer(), ZNODE, "{'x':{'name':'b','limits':{'max':9}}}");
			await().atMost(WAIT).until(() -> events.refreshes.size() == 1);
			assertThat(props.getLimits().getMin()).isEqualTo(2);
			write(app.writer(), ZNODE, "{'x':{'name':'b'}}");
			await().atMost(WAIT).until(() -> events.refreshes.size() == 2);
			assertThat(props.getLimits().getMax()).isEqualTo(7);
			assertThat(props.getLimits().getMin()).isEqualTo(2);
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class BeanMethod {

		@Bean
		@RefreshScope
		@ConfigurationProperties("x")
		Props props() {
			Props props = new Props();
			props.setTimeout(Duration.ofSeconds(42));
			props.getLimits().setMax(7);
			props.getLimits().setMin(2);
			return props;
		}

	}

	@EnableConfigurationProperties(ComponentProps.class)
	static class Component {

	}

	@RefreshScope
	@ConfigurationProperties("x")
	public static class ComponentProps extends Props {

	}

	public static class Props {

		private String name = "none";

		private String mode = "auto";

		private Duration timeout = Duration.ofSeconds(5);

		private final Limits limits = new Limits();

		public String getName() {
			return this.name;
		}

		public void setName(String name) {
			this.name = name;
		}

		public String getMode() {
			return this.mode;
		}

		public void setMode(String mode) {
			this.mode = mode;
		}

		public Duration getTimeout() {
			return this.timeout;
		}

		public void setTimeout(Duration timeout) {
			this.timeout = timeout;
		}

		public Limits getLimits() {
			return this.limits;
		}

		public static class Limits {

			private int max = 1;

			private int min = 0;

			public int getMax() {
				return this.max;
			}

			public void setMax(int max) {
				this.max = max;
			}

			public int getMin() {
				return this.min;
			}

			public void setMin(int min) {
				this.min = min;
			}

		}

	}

}
