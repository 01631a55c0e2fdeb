package dev.zkspring.refresh;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.ConfigurationPropertiesBinding;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.convert.converter.Converter;

import dev.zkspring.refresh.RefreshTestSupport.EventRecorder;
import dev.zkspring.test.ZkAppFixture;

import static dev.zkspring.refresh.RefreshTestSupport.WAIT;
import static dev.zkspring.refresh.RefreshTestSupport.ZNODE;
import static dev.zkspring.refresh.RefreshTestSupport.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A rebind binds as Boot bound at startup: the same converters, and any class Boot can bind. */
@ExtendWith(OutputCaptureExtension.class)
class BinderParityIntegrationTests {

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server(RefreshTestSupport::runner).cleaning("/config");

	@Test
	void aTypeWithAConfigurationPropertiesBindingConverterIsReboundWithThatConverter() throws Exception {
		write(app.writer(), ZNODE, "{'pay':{'price':'5 EUR'}}");
		app.runner().withUserConfiguration(MoneyConfiguration.class).run((context) -> {
			PaymentProperties payment = context.getBean(PaymentProperties.class);
			assertThat(payment.getPrice()).isEqualTo(new Money(5, "EUR"));
			EventRecorder events = context.getBean(EventRecorder.class);
			write(app.writer(), ZNODE, "{'pay':{'price':'7 USD'}}");
			await().atMost(WAIT).until(() -> events.refreshes.size() + events.rejections.size() == 1);
			assertThat(events.rejections).isEmpty();
			assertThat(payment.getPrice()).isEqualTo(new Money(7, "USD"));
		});
	}

	@Test
	void anOpaqueValueTypeWithEqualsButNoGettersIsReboundWithTheOtherProperties() throws Exception {
		write(app.writer(), ZNODE, "{'wallet':{'owner':'ann','limit':'5 EUR'}}");
		app.runner().withUserConfiguration(OpaqueMoneyConfiguration.class).run((context) -> {
			WalletProperties wallet = context.getBean(WalletProperties.class);
			assertThat(wallet.getLimit()).isEqualTo(new OpaqueMoney(5, "EUR"));
			EventRecorder events = context.getBean(EventRecorder.class);
			write(app.writer(), ZNODE, "{'wallet':{'owner':'bob','limit':'7 USD'}}");
			await().atMost(WAIT).until(() -> events.refreshes.size() + events.rejections.size() == 1);
			assertThat(events.rejections).isEmpty();
			assertThat(wallet.getOwner()).isEqualTo("bob");
			assertThat(wallet.getLimit()).isEqualTo(new OpaqueMoney(7, "USD"));
			// removed from ZooKeeper: back to the field's default, not to a copy that lost its state
			write(app.writer(), ZNODE, "{'wallet':{'owner':'bob'}}");
			await().atMost(WAIT).until(() -> events.refreshes.size() + events.rejections.size() == 2);
			assertThat(events.rejections).isEmpty();
			assertThat(wallet.getLimit()).isEqualTo(new OpaqueMoney(1, "EUR"));
		});
	}

	@Test
	void aPackagePrivatePropertiesClassIsRebound(CapturedOutput output) throws Exception {
		write(app.writer(), ZNODE, "{'hidden':{'name':'a'}}");
		app.runner().withUserConfiguration(HiddenConfiguration.class).run((context) -> {
			HiddenProperties hidden = context.getBean(HiddenProperties.class);
			assertThat(hidden.getName()).isEqualTo("a");
			EventRecorder events = context.getBean(EventRecorder.class);
			write(app.writer(), ZNODE, "{'hidden':{'name':'b'}}");
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

	@Configuration(proxyBeanMethods = false)
	@EnableConfigurationProperties(WalletProperties.class)
	static class OpaqueMoneyConfiguration {

		@Bean
		@ConfigurationPropertiesBinding
		static Converter<String, OpaqueMoney> opaqueMoneyConverter() {
			return (text) -> {
				String[] parts = text.trim().split(" ");
				return new OpaqueMoney(Integer.parseInt(parts[0]), parts[1]);
			};
		}

	}

	/** A value object with private state, equals and no getters (and a constructor without parameters). */
	static final class OpaqueMoney {

		private final int amount;

		private final String currency;

		private OpaqueMoney() {
			this(0, "XXX");
		}

		OpaqueMoney(int amount, String currency) {
			this.amount = amount;
			this.currency = currency;
		}

		@Override
		public boolean equals(Object other) {
			return other instanceof OpaqueMoney money && money.amount == this.amount
					&& money.currency.equals(this.currency);
		}

		@Override
		public int hashCode() {
			return 31 * this.amount + this.currency.hashCode();
		}

		@Override
		public String toString() {
			return this.amount + " " + this.currency;
		}

	}

	@RefreshScope
	@ConfigurationProperties("wallet")
	public static class WalletProperties {

		private String owner;

		private OpaqueMoney limit = new OpaqueMoney(1, "EUR");

		public String getOwner() {
			return this.owner;
		}

		public void setOwner(String owner) {
			this.owner = owner;
		}

		public OpaqueMoney getLimit() {
			return this.limit;
		}

		public void setLimit(OpaqueMoney limit) {
			this.limit = limit;
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
