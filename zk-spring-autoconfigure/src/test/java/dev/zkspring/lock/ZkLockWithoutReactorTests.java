package dev.zkspring.lock;

import java.io.File;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.ClassUtils;

import dev.zkspring.test.ZkAppFixture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** Reactor is optional: without it the context starts and {@code @ZkLock} works on plain and future methods. */
class ZkLockWithoutReactorTests {

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server(LockApps::runner)
		.with((runner) -> runner.withClassLoader(new FilteredClassLoader("reactor.core", "org.reactivestreams"))
			.withUserConfiguration(Services.class));

	@Test
	void lockWorksWithReactorHidden() {
		app.runner().run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(ClassUtils.isPresent("reactor.core.publisher.Mono", context.getClassLoader())).isFalse();
			PlainService service = context.getBean(PlainService.class);
			assertThat(AopUtils.isAopProxy(service)).isTrue();
			assertThat(service.plain("p")).isEqualTo("plain:p held");
			assertThat(service.future("f").get(10, TimeUnit.SECONDS)).isEqualTo("future:f");
		});
	}

	/**
	 * The filtered class loader above hides Reactor from the context only: the lock's own classes come from
	 * the application class loader, which has Reactor. Here they are loaded from a class path without it.
	 */
	@Test
	void lockClassesLoadAndCheckMethodsFromAClassPathWithoutReactor() throws Exception {
		String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
		List<URL> urls = new ArrayList<>();
		for (String entry : classPath.split(File.pathSeparator)) {
			if (!entry.contains("reactor-core") && !entry.contains("reactive-streams")) {
				urls.add(new File(entry).toURI().toURL());
			}
		}
		try (URLClassLoader loader = new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader())) {
			assertThatExceptionOfType(ClassNotFoundException.class)
				.isThrownBy(() -> loader.loadClass("reactor.core.publisher.Mono"));
			for (String name : List.of("ZkLockInterceptor", "LockOperations", "LockOperation", "ZkLockTemplate",
					"AsyncHold", "StageLocking", "ZkLockContext", "LockLosses", "ZkLockAnnotationSupport")) {
				Class.forName("dev.zkspring.lock." + name, true, loader);
			}
			Class<?> operations = loader.loadClass("dev.zkspring.lock.LockOperations");
			Constructor<?> constructor = operations.getDeclaredConstructor(loader.loadClass(BeanFactory.class.getName()));
			constructor.setAccessible(true);
			Object checker = constructor.newInstance((Object) null);
			Method validate = operations.getDeclaredMethod("validate", Class.class);
			validate.setAccessible(true);
			validate.invoke(checker, loader.loadClass(PlainService.class.getName()));
		}
	}

	@Configuration(proxyBeanMethods = false)
	static class Services {

		@Bean
		PlainService plainService() {
			return new PlainService();
		}

	}

	public static class PlainService {

		@ZkLock(key = "#key")
		public String plain(String key) {
			return "plain:" + key + (ZkLockContext.current().isHeld() ? " held" : " not held");
		}

		@ZkLock(key = "#key")
		public CompletableFuture<String> future(String key) {
			return CompletableFuture.completedFuture("future:" + key);
		}

	}

}
