package dev.zkspring.aot;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;

import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.TypeReference;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.AnnotationConfigUtils;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.javapoet.ClassName;

import dev.zkspring.leader.LeaderOnly;
import dev.zkspring.lock.ZkLock;
import dev.zkspring.refresh.RefreshScope;
import dev.zkspring.refresh.ZkConfigListener;
import dev.zkspring.refresh.ZkRefreshedEvent;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hints zk-spring contributes (through {@code META-INF/spring/aot.factories}) when Spring processes an
 * application ahead of time, checked with Spring's {@link RuntimeHintsPredicates} on what a native image
 * would need: the lock and leader interceptors' methods, the refresh's rebinding, the jobs.
 */
class RuntimeHintsTests {

	static RuntimeHints hints;

	@BeforeAll
	static void processAheadOfTime() {
		GenericApplicationContext context = new GenericApplicationContext();
		AnnotationConfigUtils.registerAnnotationConfigProcessors(context);
		context.registerBean(UserBeans.class);
		DefaultGenerationContext generation = new DefaultGenerationContext(
				new ClassNameGenerator(ClassName.get(RuntimeHintsTests.class)), new InMemoryGeneratedFiles());
		new ApplicationContextAotGenerator().processAheadOfTime(context, generation);
		hints = generation.getRuntimeHints();
	}

	@Test
	void zkLockMethodsAreInvokableAndTheirKeysReadable() throws Exception {
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Stock.class.getDeclaredMethod("deduct", Order.class)))
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onType(Order.class).withMemberCategory(MemberCategory.INVOKE_PUBLIC_METHODS))
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onType(TypeReference.of("dev.zkspring.lock.LockExpressionRoot"))
			.withMemberCategory(MemberCategory.INVOKE_PUBLIC_METHODS)).accepts(hints);
	}

	@Test
	void leaderOnlyMethodsAreInvokable() throws Exception {
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Report.class.getDeclaredMethod("publish")))
			.accepts(hints);
	}

	@Test
	void refreshScopedClassesCanBeRewrittenAcrossTheirHierarchy() {
		for (Class<?> type : new Class<?>[] { Greeting.class, BaseGreeting.class }) {
			assertThat(RuntimeHintsPredicates.reflection()
				.onType(type)
				.withMemberCategories(MemberCategory.ACCESS_DECLARED_FIELDS, MemberCategory.INVOKE_DECLARED_METHODS))
				.as(type.getSimpleName()).accepts(hints);
		}
	}

	@Test
	void configListenerMethodsAreInvokable() throws Exception {
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethodInvocation(Audit.class.getDeclaredMethod("changed", ZkRefreshedEvent.class))).accepts(hints);
	}

	@Test
	void jobsCanBeCreatedAndRecoveriesMarked() throws Exception {
		assertThat(RuntimeHintsPredicates.reflection()
			.onType(NightlyJob.class)
			.withMemberCategories(MemberCategory.INVOKE_DECLARED_CONSTRUCTORS, MemberCategory.INVOKE_DECLARED_METHODS))
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onFieldAccess("org.quartz.impl.JobExecutionContextImpl", "recovering"))
			.accepts(hints);
	}

	@Test
	void beansWithoutZkSpringAnnotationsGetNoHints() {
		// Spring itself may name the bean's class; zk-spring opens none of its members
		for (MemberCategory category : new MemberCategory[] { MemberCategory.ACCESS_DECLARED_FIELDS,
				MemberCategory.INVOKE_DECLARED_METHODS, MemberCategory.INVOKE_PUBLIC_METHODS }) {
			assertThat(RuntimeHintsPredicates.reflection().onType(Plain.class).withMemberCategory(category))
				.as(category.name()).rejects(hints);
		}
	}

	@Configuration(proxyBeanMethods = false)
	static class UserBeans {

		@Bean
		Stock stock() {
			return new Stock();
		}

		@Bean
		Report report() {
			return new Report();
		}

		@Bean
		Greeting greeting() {
			return new Greeting();
		}

		@Bean
		Audit audit() {
			return new Audit();
		}

		@Bean
		Plain plain() {
			return new Plain();
		}

		@Bean
		JobDetail nightly() {
			return JobBuilder.newJob(NightlyJob.class).withIdentity("nightly").storeDurably().build();
		}

	}

	public record Order(String sku) {
	}

	static class Stock {

		@ZkLock(key = "'stock:' + #order.sku")
		void deduct(Order order) {
		}

	}

	static class Report {

		@LeaderOnly
		void publish() {
		}

	}

	static class BaseGreeting {

		@Value("${greeting.prefix:hi}")
		String prefix;

	}

	@RefreshScope
	static class Greeting extends BaseGreeting {

		@Value("${greeting.name:you}")
		String name;

	}

	static class Audit {

		@ZkConfigListener
		void changed(ZkRefreshedEvent event) {
		}

	}

	static class Plain {

	}

	public static class NightlyJob implements Job {

		@Override
		public void execute(JobExecutionContext context) {
		}

	}

}
