package dev.zkspring.refresh;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.annotation.PostConstruct;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.BeanInitializationException;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

import dev.zkspring.refresh.RefreshTestSupport.EventRecorder;
import dev.zkspring.test.ZkAppFixture;

import static dev.zkspring.refresh.RefreshTestSupport.WAIT;
import static dev.zkspring.refresh.RefreshTestSupport.ZNODE;
import static dev.zkspring.refresh.RefreshTestSupport.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A rebind writes only what Boot's binder owns: state computed at init, final helper fields and
 * other non-property state are left alone, init callbacks run again after a change, and collections
 * are replaced by reference (or refused at startup when only a final getter exists).
 */
class RebindOwnershipIntegrationTests {

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server(RefreshTestSupport::runner).cleaning("/config");

	@Test
	void stateComputedAtInitSurvivesAnUnrelatedChange() throws Exception {
		write(app.writer(), ZNODE, "{'shop':{'greeting':'hi','items':['a','b']},'other':'1'}");
		app.runner().withUserConfiguration(EnableShop.class).run((context) -> {
			Shop shop = context.getBean(Shop.class);
			assertThat(shop.getSummary()).isEqualTo("hi:2");
			shop.uses.incrementAndGet();
			EventRecorder events = context.getBean(EventRecorder.class);
			write(app.writer(), ZNODE, "{'shop':{'greeting':'hi','items':['a','b']},'other':'2'}");
			await().atMost(WAIT).until(() -> events.refreshes.size() == 1);
			assertThat(events.rejections).isEmpty();
			assertThat(shop.getSummary()).isEqualTo("hi:2");
			assertThat(shop.uses).hasValue(1);
			assertThat(shop.initialized).hasValue(1);
		});
	}

	@Test
	void aFinalHelperFieldBlocksNothingAndInitCallbacksRunAgainAfterAChange() throws Exception {
		write(app.writer(), ZNODE, "{'shop':{'greeting':'hi','items':['a']}}");
		app.runner().withUserConfiguration(EnableShop.class).run((context) -> {
			Shop shop = context.getBean(Shop.class);
			AtomicInteger uses = shop.uses;
			uses.set(7);
			EventRecorder events = context.getBean(EventRecorder.class);
			write(app.writer(), ZNODE, "{'shop':{'greeting':'hello','items':['a','b','c']}}");
			await().atMost(WAIT).until(() -> events.refreshes.size() == 1);
			assertThat(events.rejections).isEmpty();
			assertThat(shop.getGreeting()).isEqualTo("hello");
			// derived state follows: @PostConstruct and afterPropertiesSet ran again, in Spring's order
			assertThat(shop.getSummary()).isEqualTo("hello:3");
			assertThat(shop.initialized).hasValue(2);
			assertThat(shop.callbacks).containsExactly("postConstruct", "afterPropertiesSet", "postConstruct",
					"afterPropertiesSet");
			assertThat(shop.uses).isSameAs(uses).hasValue(7);
			assertThat(events.refreshes.get(0).getTargets()).anyMatch((target) -> target.endsWith("init callbacks"))
				.noneMatch((target) -> target.contains("uses") || target.contains("summary"));
		});
	}

	@Test
	void aListIsReplacedByReferenceSoReadersNeverSeeItPartOrFail() throws Exception {
		write(app.writer(), ZNODE, "{'shop':{'items':['a','b','c','d']}}");
		app.runner().withUserConfiguration(EnableShop.class).run((context) -> {
			Shop shop = context.getBean(Shop.class);
			EventRecorder events = context.getBean(EventRecorder.class);
			AtomicReference<Throwable> failure = new AtomicReference<>();
			List<Integer> sizes = new java.util.concurrent.CopyOnWriteArrayList<>();
			CountDownLatch reading = new CountDownLatch(1);
			AtomicInteger stop = new AtomicInteger();
			Thread reader = new Thread(() -> {
				reading.countDown();
				while (stop.get() == 0) {
					try {
						int size = 0;
						for (String item : shop.getItems()) {
							size += (item != null) ? 1 : 0;
						}
						sizes.add(size);
					}
					catch (Throwable ex) {
						failure.compareAndSet(null, ex);
					}
				}
			});
			reader.start();
			assertThat(reading.await(5, TimeUnit.SECONDS)).isTrue();
			List<String> before = shop.getItems();
			for (int i = 1; i <= 10; i++) {
				int n = (i % 2 == 0) ? 4 : 3;
				List<String> items = new ArrayList<>();
				for (int j = 0; j < n; j++) {
					items.add("'i" + i + "-" + j + "'");
				}
				write(app.writer(), ZNODE, "{'shop':{'items':" + items + "}}");
				int expected = i;
				await().atMost(WAIT).until(() -> events.refreshes.size() == expected);
			}
			stop.set(1);
			reader.join(5000);
			assertThat(failure.get()).isNull();
			assertThat(sizes).isNotEmpty().allMatch((size) -> size == 3 || size == 4);
			// the old list was not refilled under its readers: it was replaced
			assertThat(before).containsExactly("a", "b", "c", "d");
			assertThat(shop.getItems()).hasSize(4);
		});
	}

	@Test
	void aFinalGetterOnlyListIsRefusedAtStartupSayingToAddASetter() throws Exception {
		write(app.writer(), ZNODE, "{'fixed':{'items':['a']}}");
		app.runner().withUserConfiguration(EnableFinalList.class).run((context) -> {
			assertThat(context).hasFailed();
			Throwable failure = context.getStartupFailure();
			while (failure != null && !(failure instanceof BeanInitializationException)) {
				failure = failure.getCause();
			}
			assertThat(failure).isNotNull();
			assertThat(failure.getMessage()).contains("property 'items'").contains("Add a setter");
		});
	}

	@EnableConfigurationProperties(Shop.class)
	static class EnableShop {

	}

	@EnableConfigurationProperties(FinalList.class)
	static class EnableFinalList {

	}

	@RefreshScope
	@ConfigurationProperties("shop")
	public static class Shop implements InitializingBean {

		private String greeting = "default";

		private List<String> items = new ArrayList<>();

		private String summary;

		final AtomicInteger uses = new AtomicInteger();

		final AtomicInteger initialized = new AtomicInteger();

		final List<String> callbacks = new java.util.concurrent.CopyOnWriteArrayList<>();

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

		/** Computed at init: not a bound property (no setter). */
		public String getSummary() {
			return this.summary;
		}

		public AtomicInteger getUses() {
			return this.uses;
		}

		@PostConstruct
		void postConstruct() {
			this.callbacks.add("postConstruct");
		}

		@Override
		public void afterPropertiesSet() {
			this.callbacks.add("afterPropertiesSet");
			this.summary = this.greeting + ":" + this.items.size();
			this.initialized.incrementAndGet();
		}

	}

	@RefreshScope
	@ConfigurationProperties("fixed")
	public static class FinalList {

		private final List<String> items = new ArrayList<>();

		public List<String> getItems() {
			return this.items;
		}

	}

}
