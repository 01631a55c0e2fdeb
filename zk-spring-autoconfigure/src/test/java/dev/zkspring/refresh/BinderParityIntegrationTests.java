package dev.zkspring.refresh;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.ConfigurationPropertiesBinding;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.convert.converter.Converter;

import dev.zkspring.refresh.RefreshTestSupport.EventRecorder;
import dev.zkspring.test.ZooKeeperExtension;

import static dev.zkspring.refresh.RefreshTestSupport.WAIT;
import static dev.zkspring.refresh.RefreshTestSupport.ZNODE;
import static dev.zkspring.refresh.RefreshTestSupport.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A rebind binds as Boot bound at startup: the same converters, and any class Boot can bind. */
@ExtendWith(OutputCaptureExtension.class)
class BinderParityIntegrationTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@RegisterExtension
	final RefreshFixture fixture = new RefreshFixture(zk);

	private CuratorFramework writer;

	private ApplicationContextRunner runner;

	@BeforeEach
	void setUp() throws Exception {
		this.writer = this.fixture.writer();
		this.runner = this.fixture.runner();
	}

	@Test
	void aTypeWithAConfigurationPropertiesBindingConverterIsReboundWithThatConverter() throws Exception {
		write(this.writer, ZNODE, "{'pay':{'price':'5 EUR'}}");
		this.runner.withUserConfiguration(MoneyConfiguration.class).run((context) -> {
			PaymentProperties payment = context.getBean(PaymentProperties.class);
			assertThat(payment.getPrice()).isEqualTo(new Money(5, "EUR"));
			EventRecorder events = context.getBean(EventRecorder.class);
			write(this.writer, ZNODE, "{'pay':{'price':'7 USD'}}");
			await().atMost(WAIT).until(() -> events.refreshes.size() + events.rejections.size() == 1);
			assertThat(events.rejections).isEmpty();
			assertThat(payment.getPrice()).isEqualTo(new Money(7, "USD"));
		});
	}

	@Test
	void aPackagePrivatePropertiesClassIsRebound(CapturedOutput output) throws Exception {
		write(this.writer, ZNODE, "{'hidden':{'name':'a'}}");
		this.runner.withUserConfiguration(HiddenConfiguration.class).run((context) -> {
			HiddenProperties hidden = context.getBean(HiddenProperties.class);
			assertThat(hidden.getName()).isEqualTo("a");
			EventRecorder events = context.getBean(EventRecorder.class);
			write(this.writer, ZNODE, "{'hidden':{'name':'b'}}");
			await().atMost(WAIT).until(() -> events.refreshes.size() == 1);
			assertThat(hidden.getName()).isEqualTo("b");
		});
		assertThat(output).doesNotContain("no constructor without parameters");
	}

	@Configuration(proxyBeanMethods = false)
	@EnableConfigurationProperties(PaymentProperties.class)
	static class MoneyConfiguration {

		@Bean
		@ConfigurationPropertiesBinding
		static Converter<String, Money> moneyConverter() {
			return (text) -> {
				String[] parts = text.trim().split(" ");
				return new Money(Integer.parseInt(parts[0]), parts[1]);
			};
		}

	}

	record Money(int amount, String currency) {

	}

	@RefreshScope
	@ConfigurationProperties("pay")
	public static class PaymentProperties {

		private Money price;

		public Money getPrice() {
			return this.price;
		}

		public void setPrice(Money price) {
			this.price = price;
		}

	}

	@EnableConfigurationProperties(HiddenProperties.class)
	static class HiddenConfiguration {

	}

	// package-private, so its implicit constructor is too
	@RefreshScope
	@ConfigurationProperties("hidden")
	static class HiddenProperties {

		private String name;

		public String getName() {
			return this.name;
		}

		public void setName(String name) {
			this.name = name;
		}

	}

}
