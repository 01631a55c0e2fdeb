package dev.zkspring.lock;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.zkspring.client.ZkStartupException;
import dev.zkspring.test.ZkAppFixture;

import static org.assertj.core.api.Assertions.assertThat;

/** Invalid use of {@code @ZkLock} or {@code zk.lock.*} fails at startup, naming the method or property and the fix. */
class ZkLockStartupFailureTests {

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server(LockApps::runner);

	@Test
	void keyThatIsNotSpelFailsNamingTheMethod() {
		assertStartupFailure(BadSpel.class, "@ZkLock on BadSpel.run(String) has a key that is not valid SpEL",
				"Fix the key expression");
	}

	@Test
	void keyReferringToAnUnknownParameterFailsNamingTheParameters() {
		assertStartupFailure(UnknownParameter.class, "refers to #skuu, but the method has no such parameter "
				+ "(parameter names: sku)", "compile with -parameters");
	}

	@Test
	void skipOnAPrimitiveReturnTypeFails() {
		assertStartupFailure(SkipPrimitive.class,
				"@ZkLock(onBusy = SKIP) on SkipPrimitive.count() returns int, which cannot be null",
				"Return the wrapper type (Integer) or an Optional");
	}

	@Test
	void unknownWaitTimeFormatFails() {
		assertStartupFailure(BadWait.class, "@ZkLock on BadWait.run() has waitTime '3 seconds', which is not a duration",
				"\"3s\"");
	}

	@Test
	void negativeWaitTimeFails() {
		assertStartupFailure(NegativeWait.class, "negative waitTime '-1s'", "\"0\" to try once");
	}

	@Test
	void futureWhoseCompletionCannotBeFollowedFailsAndSaysWhy() {
		assertStartupFailure(FutureWithoutAsync.class,
				"@ZkLock on FutureWithoutAsync.run() returns Future, whose completion the lock cannot follow",
				"Return Mono, Flux, CompletableFuture or CompletionStage");
	}

	@Test
	void finalMethodThatTheProxyCannotInterceptFails() {
		assertStartupFailure(FinalMethod.class,
				"@ZkLock on FinalMethod.run() has no effect: the method is final, so the proxy cannot intercept it",
				"neither final nor static");
	}

	@Test
	void privateMethodFails() {
		assertStartupFailure(PrivateMethod.class, "the method is private", "Make the method public");
	}

	@Test
	void waitTimePlaceholderIsResolved() {
		app.runner().withPropertyValues("app.wait=2s")
			.withUserConfiguration(PlaceholderWait.class)
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void invalidLockRootFailsNamingTheProperty() {
		app.runner().withPropertyValues("zk.lock.root=locks/").run((context) -> {
			assertThat(context).hasFailed();
			ZkStartupException ex = startupException(context.getStartupFailure());
			assertThat(ex.getDescription()).contains("zk.lock.root 'locks/' is not a usable znode path");
			assertThat(ex.getAction()).contains("/locks");
		});
	}

	@Test
	void negativeDefaultWaitFailsNamingTheProperty() {
		app.runner().withPropertyValues("zk.lock.default-wait=-1s").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(startupException(context.getStartupFailure()).getDescription())
				.contains("zk.lock.default-wait");
		});
	}

	private void assertStartupFailure(Class<?> beanClass, String description, String action) {
		app.runner().withBean(beanClass).run((context) -> {
			assertThat(context).hasFailed();
			ZkStartupException ex = startupException(context.getStartupFailure());
			assertThat(ex.getDescription()).contains(description);
			assertThat(ex.getAction()).contains(action);
		});
	}

	private static ZkStartupException startupException(Throwable failure) {
		Throwable cause = failure;
		while (cause != null && !(cause instanceof ZkStartupException)) {
			cause = cause.getCause();
		}
		assertThat(cause).as("startup failure caused by ZkStartupException").isNotNull();
		return (ZkStartupException) cause;
	}

	static class BadSpel {

		@ZkLock(key = "'stock:' + #sku +")
		public void run(String sku) {
		}

	}

	static class UnknownParameter {

		@ZkLock(key = "'stock:' + #skuu")
		public void run(String sku) {
		}

	}

	static class SkipPrimitive {

		@ZkLock(onBusy = ZkLock.OnBusy.SKIP)
		public int count() {
			return 1;
		}

	}

	static class BadWait {

		@ZkLock(waitTime = "3 seconds")
		public void run() {
		}

	}

	static class NegativeWait {

		@ZkLock(waitTime = "-1s")
		public void run() {
		}

	}

	static class FutureWithoutAsync {

		@ZkLock
		public Future<String> run() {
			return CompletableFuture.completedFuture("x");
		}

	}

	static class FinalMethod {

		@ZkLock
		public final void run() {
		}

	}

	static class PrivateMethod {

		@ZkLock
		private void run() {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class PlaceholderWait {

		@Bean
		Runner runner() {
			return new Runner();
		}

		static class Runner {

			@ZkLock(waitTime = "${app.wait}")
			public void run() {
			}

		}

	}

}
