package dev.zkspring.lock;

import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.zkspring.test.ZkAppFixture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Issue 25, item 8: a key is its content. Two equal arrays or sets lock each other out, and a key that
 * cannot name a node faithfully (a lone UTF-16 surrogate, an object keyed by identity) is refused with
 * a message naming the key expression, instead of sharing a lock with other keys or with none.
 */
class ZkLockKeyContentIntegrationTests {

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server(LockApps::runner)
		.with((runner) -> runner.withUserConfiguration(Config.class));

	@Test
	void twoEqualArraysLockTheSameKey() {
		app.runner().run((context) -> {
			SkuService service = context.getBean(SkuService.class);
			String held = whileHeld(() -> service.holdArray(new String[] { "a", "b" }),
					() -> service.tryArray(new String[] { "a", "b" }));
			assertThat(held).as("the second equal array ran while the first held the key").isNull();
			assertThat(service.tryArray(new String[] { "a", "b" })).isEqualTo("[a, b]");
		});
	}

	@Test
	void twoEqualSetsIteratingInAnotherOrderLockTheSameKey() {
		app.runner().run((context) -> {
			SkuService service = context.getBean(SkuService.class);
			// "a" and "q" share a bucket of a 16-slot table: iteration follows insertion
			Collection<String> first = new HashSet<>(16);
			first.add("a");
			first.add("q");
			Collection<String> second = new HashSet<>(16);
			second.add("q");
			second.add("a");
			assertThat(first).isEqualTo(second);
			assertThat(first.toString()).isNotEqualTo(second.toString());
			String held = whileHeld(() -> service.holdCollection(first), () -> service.tryCollection(second));
			assertThat(held).as("the second equal set ran while the first held the key").isNull();
			assertThat(service.tryCollection(List.of("q", "a"))).isEqualTo("[q, a]");
			assertThat(service.tryCollection(second)).isEqualTo("[a, q]");
		});
	}

	@Test
	void keysWithALoneSurrogateAreRefusedNamingTheExpression() {
		app.runner().run((context) -> {
			SkuService service = context.getBean(SkuService.class);
			// both would be encoded as "?x": two different keys, one lock
			for (String key : List.of("\uD800x", "\uDBFFx", "x\uDC00")) {
				assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> service.tryText(key))
					.withMessageContaining("@ZkLock on SkuService.tryText(String) ('#sku')")
					.withMessageContaining("lone UTF-16 surrogate");
			}
			assertThat(service.tryText("\uD83D\uDE00")).isEqualTo("\uD83D\uDE00");
			String held = whileHeld(() -> service.holdText("\uD83D\uDE00"), () -> service.tryText("\uD83D\uDE01"));
			assertThat(held).as("two different well-formed keys").isEqualTo("\uD83D\uDE01");
			ZkLockTemplate template = context.getBean(ZkLockTemplate.class);
			assertThatExceptionOfType(IllegalArgumentException.class)
				.isThrownBy(() -> template.execute("\uD800x", Duration.ZERO, () -> "never"))
				.withMessageContaining("lone UTF-16 surrogate");
		});
	}

	@Test
	void aKeyObjectWithoutToStringIsRefusedNamingTheExpression() {
		app.runner().run((context) -> {
			SkuService service = context.getBean(SkuService.class);
			assertThatExceptionOfType(IllegalArgumentException.class)
				.isThrownBy(() -> service.tryObject(List.of(new Object())))
				.withMessageContaining("@ZkLock on SkuService.tryObject(Object) ('#value')")
				.withMessageContaining("java.lang.Object, which has no toString()");
			assertThat(service.tryObject(Map.of("b", 2, "a", new int[] { 1 }))).isEqualTo("{a=[1], b=2}");
		});
	}

	/** Run {@code second} while {@code first} holds its key on another thread; what {@code second} returned. */
	private static @Nullable String whileHeld(Runnable first, Supplier<@Nullable String> second) throws Exception {
		Thread holder = new Thread(first);
		SkuService.entered = new CountDownLatch(1);
		SkuService.release = new CountDownLatch(1);
		holder.start();
		try {
			assertThat(SkuService.entered.await(10, TimeUnit.SECONDS)).isTrue();
			return second.get();
		}
		finally {
			SkuService.release.countDown();
			holder.join(10_000);
		}
	}

	@Configuration(proxyBeanMethods = false)
	static class Config {

		@Bean
		SkuService skuService() {
			return new SkuService();
		}

	}

	static class SkuService {

		static volatile CountDownLatch entered = new CountDownLatch(1);

		static volatile CountDownLatch release = new CountDownLatch(1);

		@ZkLock(key = "#skus")
		public void holdArray(String[] skus) {
			hold();
		}

		@ZkLock(key = "#skus", waitTime = "0", onBusy = ZkLock.OnBusy.SKIP)
		public String tryArray(String[] skus) {
			return ZkLockContext.current().getKey();
		}

		@ZkLock(key = "#skus")
		public void holdCollection(Collection<String> skus) {
			hold();
		}

		@ZkLock(key = "#skus", waitTime = "0", onBusy = ZkLock.OnBusy.SKIP)
		public String tryCollection(Collection<String> skus) {
			return ZkLockContext.current().getKey();
		}

		@ZkLock(key = "#sku")
		public void holdText(String sku) {
			hold();
		}

		@ZkLock(key = "#sku", waitTime = "0", onBusy = ZkLock.OnBusy.SKIP)
		public String tryText(String sku) {
			return ZkLockContext.current().getKey();
		}

		@ZkLock(key = "#value", waitTime = "0", onBusy = ZkLock.OnBusy.SKIP)
		public String tryObject(Object value) {
			return ZkLockContext.current().getKey();
		}

		private static void hold() {
			entered.countDown();
			try {
				release.await(30, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

	}

}
