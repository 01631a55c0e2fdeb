package dev.zkspring.refresh;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Scope;
import org.springframework.core.env.Environment;

import dev.zkspring.refresh.RefreshTestSupport.EventRecorder;
import dev.zkspring.test.ZkAppFixture;

import static dev.zkspring.refresh.RefreshTestSupport.WAIT;
import static dev.zkspring.refresh.RefreshTestSupport.ZNODE;
import static dev.zkspring.refresh.RefreshTestSupport.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** {@code @Value} members of {@code @RefreshScope} beans take new values in place, and only those. */
class ValueRefreshIntegrationTests {

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server(RefreshTestSupport::runner).cleaning("/config");

	@Test
	void everyKindOfValueTargetTakesTheNewValue() throws Exception {
		write(app.writer(), ZNODE, "{'shop':{'greeting':'hi','title':'t1','pointer':'shop.first','first':'one',"
				+ "'second':'two','host':'alpha','composite':'${shop.host}:8080','limit':'3','sizes':'1,2',"
				+ "'timeout':'10s','level':'LOW','price':'$5'}}");
		app.runner().withUserConfiguration(AllKinds.class).run((context) -> {
			AllKinds bean = context.getBean(AllKinds.class);
			assertThat(bean.greeting).isEqualTo("hi");
			assertThat(bean.mode).isEqualTo("standard");
			assertThat(bean.pointed).isEqualTo("one");
			assertThat(bean.composite).isEqualTo("alpha:8080");
			write(app.writer(), ZNODE, "{'shop':{'greeting':'hello','title':'t2','pointer':'shop.second','first':'one',"
					+ "'second':'two','host':'beta','composite':'${shop.host}:8080','limit':'21','sizes':'4,5,6',"
					+ "'timeout':'2m','level':'HIGH','price':'a$b $c {d}','mode':'fast','template':'\\\\${not.a.key}'}}");
			EventRecorder events = context.getBean(EventRecorder.class);
			await().atMost(WAIT).until(() -> events.refreshes.size() == 1);
			assertThat(bean.greeting).isEqualTo("hello");
			assertThat(bean.title).isEqualTo("t2");
			assertThat(bean.mode).isEqualTo("fast");
			assertThat(bean.pointed).isEqualTo("two");
			assertThat(bean.url).isEqualTo("beta/api");
			assertThat(bean.composite).isEqualTo("beta:8080");
			assertThat(bean.shout).isEqualTo("HELLO");
			assertThat(bean.doubled).isEqualTo(42);
			assertThat(bean.greetingLength).isEqualTo(5);
			assertThat(bean.sizes).containsExactly(4, 5, 6);
			assertThat(bean.timeout).isEqualTo(Duration.ofMinutes(2));
			assertThat(bean.level).isEqualTo(Level.HIGH);
			assertThat(bean.price).isEqualTo("a$b $c {d}");
			assertThat(bean.template).isEqualTo("${not.a.key}");
			assertThat(bean.configured).isEqualTo("one x21");
		});
	}

	@Test
	void onlyTargetsWhoseValueChangedAreWritten() throws Exception {
		write(app.writer(), ZNODE, "{'shop':{'greeting':'hi','title':'t1','host':'alpha'}}");
		app.runner().withUserConfiguration(Counting.class).run((context) -> {
			Counting bean = context.getBean(Counting.class);
			assertThat(bean.greetingWrites).hasValue(1);
			assertThat(bean.titleWrites).hasValue(1);
			write(app.writer(), ZNODE, "{'shop':{'greeting':'hello','title':'t1','host':'beta'}}");
			EventRecorder events = context.getBean(EventRecorder.class);
			await().atMost(WAIT).until(() -> events.refreshes.size() == 1);
			assertThat(bean.greetingWrites).hasValue(2);
			assertThat(bean.titleWrites).hasValue(1);
			assertThat(events.refreshes.get(0).getTargets())
				.containsExactly("bean 'valueRefreshIntegrationTests.Counting' method 'setGreeting'");
		});
	}

	@Test
	void aBeanWithoutRefreshScopeIsNeverTouched() throws Exception {
		write(app.writer(), ZNODE, "{'shop':{'greeting':'hi'}}");
		app.runner().withUserConfiguration(NotRefreshed.class, Counting.class).run((context) -> {
			NotRefreshed plain = context.getBean(NotRefreshed.class);
			write(app.writer(), ZNODE, "{'shop':{'greeting':'hello'}}");
			EventRecorder events = context.getBean(EventRecorder.class);
			await().atMost(WAIT).until(() -> events.refreshes.size() == 1);
			assertThat(context.getBean(Counting.class).greeting).isEqualTo("hello");
			assertThat(plain.greeting).isEqualTo("hi");
			assertThat(plain.writes).hasValue(1);
		});
	}

	@Test
	void refreshScopeOnABeanMethodRefreshesTheBeanItReturns() throws Exception {
		write(app.writer(), ZNODE, "{'shop':{'greeting':'hi'}}");
		app.runner().withUserConfiguration(BeanMethods.class).run((context) -> {
			write(app.writer(), ZNODE, "{'shop':{'greeting':'hello'}}");
			EventRecorder events = context.getBean(EventRecorder.class);
			await().atMost(WAIT).until(() -> events.refreshes.size() == 1);
			assertThat(context.getBean("refreshed", NotRefreshed.class).greeting).isEqualTo("hello");
			assertThat(context.getBean("notRefreshed", NotRefreshed.class).greeting).isEqualTo("hi");
		});
	}

	@Test
	void aPrototypeIsRefreshedWhileReferencedAndCollectedOnceDropped() throws Exception {
		write(app.writer(), ZNODE, "{'shop':{'greeting':'hi'}}");
		app.runner().withUserConfiguration(Prototypes.class).run((context) -> {
			RefreshTargetRecorder recorder = context.getBean(RefreshTargetRecorder.class);
			int before = recorder.size();
			Prototype kept = context.getBean(Prototype.class);
			WeakReference<Prototype> dropped = new WeakReference<>(context.getBean(Prototype.class));
			assertThat(recorder.size()).isEqualTo(before + 2);
			write(app.writer(), ZNODE, "{'shop':{'greeting':'hello'}}");
			EventRecorder events = context.getBean(EventRecorder.class);
			await().atMost(WAIT).until(() -> events.refreshes.size() == 1);
			assertThat(kept.greeting).isEqualTo("hello");
			await().atMost(WAIT).until(() -> {
				System.gc();
				return dropped.get() == null;
			});
			await().atMost(WAIT).until(() -> recorder.size() == before + 1);
			assertThat(kept.greeting).isEqualTo("hello");
		});
	}

	@Test
	void aPrototypeInjectedBeforeARefreshAndRecordedAfterItTakesTheNewValues() throws Exception {
		write(app.writer(), ZNODE, "{'shop':{'greeting':'hi'}}");
		app.runner().withUserConfiguration(SlowPrototypes.class).run((context) -> {
			SlowPrototype.injected = new CountDownLatch(1);
			SlowPrototype.release = new CountDownLatch(1);
			CompletableFuture<SlowPrototype> created = CompletableFuture
				.supplyAsync(() -> context.getBean(SlowPrototype.class));
			// its field holds the old value, and it is not recorded yet
			assertThat(SlowPrototype.injected.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
			write(app.writer(), ZNODE, "{'shop':{'greeting':'hello'}}");
			EventRecorder events = context.getBean(EventRecorder.class);
			await().atMost(WAIT).until(() -> events.refreshes.size() == 1);
			SlowPrototype.release.countDown();
			assertThat(created.get(WAIT.toSeconds(), TimeUnit.SECONDS).greeting).isEqualTo("hello");
		});
	}

	enum Level {

		LOW, HIGH

	}

	@RefreshScope
	static class AllKinds {

		@Value("${shop.greeting}")
		String greeting;

		String title;

		@Value("${shop.mode:standard}")
		String mode;

		@Value("${${shop.pointer}}")
		String pointed;

		@Value("${shop.host}/api")
		String url;

		@Value("${shop.composite}")
		String composite;

		@Value("#{'${shop.greeting}'.toUpperCase()}")
		String shout;

		@Value("#{${shop.limit} * 2}")
		int doubled;

		@Value("#{environment['shop.greeting'].length()}")
		int greetingLength;

		@Value("${shop.sizes}")
		List<Integer> sizes;

		@Value("${shop.timeout}")
		Duration timeout;

		@Value("${shop.level}")
		Level level;

		@Value("${shop.price}")
		String price;

		@Value("${shop.template:none}")
		String template;

		String configured;

		@Value("${shop.title}")
		void setTitle(String title) {
			this.title = title;
		}

		@Autowired
		void configure(@Value("${shop.first}") String first, @Value("${shop.limit}") int limit) {
			this.configured = first + " x" + limit;
		}

	}

	@RefreshScope
	static class Counting {

		final AtomicInteger greetingWrites = new AtomicInteger();

		final AtomicInteger titleWrites = new AtomicInteger();

		volatile String greeting;

		@Value("${shop.greeting}")
		void setGreeting(String greeting) {
			this.greeting = greeting;
			this.greetingWrites.incrementAndGet();
		}

		@Value("${shop.title:none}")
		void setTitle(String title) {
			this.titleWrites.incrementAndGet();
		}

	}

	static class NotRefreshed {

		final AtomicInteger writes = new AtomicInteger();

		@Value("${shop.greeting}")
		String greeting;

		@Value("${shop.greeting}")
		void setGreeting(String greeting) {
			this.writes.incrementAndGet();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class BeanMethods {

		@Bean
		@RefreshScope
		NotRefreshed refreshed() {
			return new NotRefreshed();
		}

		@Bean
		NotRefreshed notRefreshed() {
			return new NotRefreshed();
		}

	}

	@RefreshScope
	static class Prototype {

		@Value("${shop.greeting}")
		volatile String greeting;

	}

	@RefreshScope
	static class SlowPrototype {

		static volatile CountDownLatch injected = new CountDownLatch(0);

		static volatile CountDownLatch release = new CountDownLatch(0);

		@Value("${shop.greeting}")
		volatile String greeting;

		@Autowired
		void pause(Environment environment) throws InterruptedException {
			injected.countDown();
			release.await(30, TimeUnit.SECONDS);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class SlowPrototypes {

		@Bean
		@Scope(ConfigurableBeanFactory.SCOPE_PROTOTYPE)
		SlowPrototype slowPrototype() {
			return new SlowPrototype();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class Prototypes {

		@Bean
		@Scope(ConfigurableBeanFactory.SCOPE_PROTOTYPE)
		Prototype prototype() {
			return new Prototype();
		}

	}

}
