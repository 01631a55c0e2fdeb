package dev.zkspring.refresh;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.validation.annotation.Validated;

import dev.zkspring.config.ZkConfigRejectedEvent;
import dev.zkspring.refresh.RefreshTestSupport.EventRecorder;
import dev.zkspring.test.ShopOwner;
import dev.zkspring.test.ZkAppFixture;

import static dev.zkspring.refresh.RefreshTestSupport.WAIT;
import static dev.zkspring.refresh.RefreshTestSupport.ZNODE;
import static dev.zkspring.refresh.RefreshTestSupport.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** {@code @ConfigurationProperties} + {@code @RefreshScope}: bound fresh, validated, copied over whole. */
class PropertiesRefreshIntegrationTests {

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server(RefreshTestSupport::runner).cleaning("/config")
		.with((runner) -> runner.withUserConfiguration(Enable.class));

	@Test
	void nestedObjectsListsAndMapsAreReboundInPlace() throws Exception {
		write(app.writer(), ZNODE, "{'shop':{'greeting':'hi','items':['a','b'],'owner':{'name':'ann','age':30},"
				+ "'address':{'city':'oslo'},'limits':{'max':5},'labels':{'x':'1'}}}");
		app.runner().run((context) -> {
			ShopProperties shop = context.getBean(ShopProperties.class);
			ShopOwner owner = shop.getOwner();
			ShopProperties.Address address = shop.getAddress();
			assertThat(shop.getItems()).containsExactly("a", "b");
			write(app.writer(), ZNODE, "{'shop':{'greeting':'hello','items':['c'],'owner':{'name':'bob','age':40},"
					+ "'address':{'city':'rome'},'limits':{'max':7},'labels':{'y':'2'}}}");
			EventRecorder events = context.getBean(EventRecorder.class);
			await().atMost(WAIT).until(() -> events.refreshes.size() == 1);
			assertThat(context.getBean(ShopProperties.class)).isSameAs(shop);
			assertThat(shop.getGreeting()).isEqualTo("hello");
			assertThat(shop.getItems()).containsExactly("c");
			assertThat(shop.getLabels()).containsExactly(Map.entry("y", "2"));
			assertThat(shop.getOwner()).isSameAs(owner);
			assertThat(owner.getName()).isEqualTo("bob");
			assertThat(owner.getAge()).isEqualTo(40);
			// a non-final nested object is replaced as a whole: a reader holding the old one sees old values only
			assertThat(shop.getAddress().getCity()).isEqualTo("rome");
			assertThat(address.getCity()).isEqualTo("oslo");
			assertThat(shop.getLimits().getMax()).isEqualTo(7);
			assertThat(events.refreshes.get(0).getTargets()).allMatch((target) -> target.startsWith(
					"bean 'shop-dev.zkspring.refresh.PropertiesRefreshIntegrationTests$ShopProperties' "
							+ "(@ConfigurationProperties 'shop') property '"));
		});
	}

	@Test
	void aValidationFailureRejectsTheWholeChange() throws Exception {
		write(app.writer(), ZNODE, "{'shop':{'greeting':'hi','limits':{'max':5}}}");
		app.runner().withUserConfiguration(Greeter.class).run((context) -> {
			ShopProperties shop = context.getBean(ShopProperties.class);
			Greeter greeter = context.getBean(Greeter.class);
			EventRecorder events = context.getBean(EventRecorder.class);
			write(app.writer(), ZNODE, "{'shop':{'greeting':'hello','limits':{'max':500}}}");
			await().atMost(WAIT).until(() -> events.rejections.size() == 1);
			ZkConfigRejectedEvent rejection = events.rejections.get(0);
			assertThat(rejection.getZnode()).isEqualTo(ZNODE);
			assertThat(rejection.getKey()).isEqualTo("shop.limits.max");
			assertThat(rejection.getTarget()).contains("(@ConfigurationProperties 'shop')");
			assertThat(rejection.getReason()).contains("validation").contains("shop.limits.max").doesNotContain("500");
			assertThat(shop.getGreeting()).isEqualTo("hi");
			assertThat(shop.getLimits().getMax()).isEqualTo(5);
			assertThat(greeter.greeting).isEqualTo("hi");
			assertThat(context.getEnvironment().getProperty("shop.greeting")).isEqualTo("hi");
		});
	}

	@Test
	void aConversionFailureInABoundPropertyRejectsTheWholeChange() throws Exception {
		write(app.writer(), ZNODE, "{'shop':{'greeting':'hi','owner':{'age':30}}}");
		app.runner().withUserConfiguration(Greeter.class).run((context) -> {
			ShopProperties shop = context.getBean(ShopProperties.class);
			EventRecorder events = context.getBean(EventRecorder.class);
			write(app.writer(), ZNODE, "{'shop':{'greeting':'hello','owner':{'age':'old'}}}");
			await().atMost(WAIT).until(() -> events.rejections.size() == 1);
			assertThat(events.rejections.get(0).getKey()).isEqualTo("shop.owner.age");
			assertThat(shop.getOwner().getAge()).isEqualTo(30);
			assertThat(shop.getGreeting()).isEqualTo("hi");
			assertThat(context.getBean(Greeter.class).greeting).isEqualTo("hi");
		});
	}

	@Test
	void aPropertyDerivedFromAKeyOutsideThePrefixIsRebound() throws Exception {
		write(app.writer(), ZNODE, "{'shop':{'greeting':'${site.name}!'},'site':{'name':'alpha'}}");
		app.runner().run((context) -> {
			ShopProperties shop = context.getBean(ShopProperties.class);
			assertThat(shop.getGreeting()).isEqualTo("alpha!");
			EventRecorder events = context.getBean(EventRecorder.class);
			write(app.writer(), ZNODE, "{'shop':{'greeting':'${site.name}!'},'site':{'name':'beta'}}");
			await().atMost(WAIT).until(() -> events.refreshes.size() == 1);
			assertThat(shop.getGreeting()).isEqualTo("beta!");
			assertThat(events.refreshes.get(0).getTargets()).singleElement()
				.satisfies((target) -> assertThat(target).endsWith("property 'greeting'"));
		});
	}

	@Test
	void propertiesWhoseValuesDidNotChangeAreNotWritten() throws Exception {
		write(app.writer(), ZNODE, "{'shop':{'greeting':'hi','address':{'city':'oslo'},'items':['a']},'other':'1'}");
		app.runner().run((context) -> {
			ShopProperties shop = context.getBean(ShopProperties.class);
			ShopProperties.Address address = shop.getAddress();
			EventRecorder events = context.getBean(EventRecorder.class);
			write(app.writer(), ZNODE, "{'shop':{'greeting':'hi','address':{'city':'oslo'},'items':['a']},'other':'2'}");
			await().atMost(WAIT).until(() -> events.refreshes.size() == 1);
			assertThat(events.refreshes.get(0).getTargets()).isEmpty();
			assertThat(shop.getAddress()).isSameAs(address);
			assertThat(shop.getGreeting()).isEqualTo("hi");
		});
	}

	@EnableConfigurationProperties(ShopProperties.class)
	static class Enable {

	}

	@RefreshScope
	static class Greeter {

		@Value("${shop.greeting}")
		volatile String greeting;

	}

	@RefreshScope
	@Validated
	@ConfigurationProperties("shop")
	public static class ShopProperties {

		private String greeting = "default";

		private List<String> items = new ArrayList<>();

		// a getter only: the refresh replaces it through its field, by reference
		private Map<String, String> labels = new LinkedHashMap<>();

		private final ShopOwner owner = new ShopOwner();

		private Address address = new Address();

		@Valid
		private final Limits limits = new Limits();

		public String getGreeting() {
			return this.greeting;
		}

		public void setGreeting(String greeting) {
			this.greeting = greeting;
		}

		public List<String> getItems() {
			return this.items;
		}

		public void setItems(List<String> items) {
			this.items = items;
		}

		public Map<String, String> getLabels() {
			return this.labels;
		}

		public ShopOwner getOwner() {
			return this.owner;
		}

		public Address getAddress() {
			return this.address;
		}

		public void setAddress(Address address) {
			this.address = address;
		}

		public Limits getLimits() {
			return this.limits;
		}

		public static class Address {

			private String city = "nowhere";

			public String getCity() {
				return this.city;
			}

			public void setCity(String city) {
				this.city = city;
			}

		}

		public static class Limits {

			@Min(1)
			@Max(10)
			private int max = 1;

			public int getMax() {
				return this.max;
			}

			public void setMax(int max) {
				this.max = max;
			}

		}

	}

}
