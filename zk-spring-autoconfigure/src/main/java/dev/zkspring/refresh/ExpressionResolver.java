package dev.zkspring.refresh;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.config.BeanExpressionContext;
import org.springframework.beans.factory.config.BeanExpressionResolver;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.expression.StandardBeanExpressionResolver;
import org.springframework.core.env.AbstractEnvironment;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MutablePropertySources;

/**
 * Resolves a {@code @Value} expression as the bean factory did when it injected it (placeholders,
 * then {@code #{...}} SpEL) but against a given Environment, so a candidate can be tried before it
 * is applied. SpEL that reads {@code environment} sees that Environment too.
 */
final class ExpressionResolver {

	/** The raw value of an expression that resolves to nothing. */
	static final Object UNRESOLVABLE = new Object() {

		@Override
		public String toString() {
			return "<unresolvable>";
		}

	};

	private static final Pattern PLACEHOLDER_KEY = Pattern.compile("\\$\\{([^${}:]+)");

	private final ConfigurableEnvironment environment;

	private final @Nullable BeanExpressionResolver spel;

	private final BeanExpressionContext spelContext;

	private ExpressionResolver(ConfigurableEnvironment environment, @Nullable BeanExpressionResolver spel,
			BeanExpressionContext spelContext) {
		this.environment = environment;
		this.spel = spel;
		this.spelContext = spelContext;
	}

	/** Resolve against the application's Environment, exactly as the bean factory injects. */
	static ExpressionResolver live(ConfigurableBeanFactory beanFactory, ConfigurableEnvironment environment) {
		return new ExpressionResolver(environment, beanFactory.getBeanExpressionResolver(),
				new BeanExpressionContext(beanFactory, null));
	}

	/**
	 * Resolve against another Environment. With the standard SpEL resolver, {@code environment} in an
	 * expression is that Environment: a resolver of its own holds the context, since the shared one
	 * caches its evaluation contexts by bean factory.
	 */
	static ExpressionResolver of(ConfigurableBeanFactory beanFactory, ConfigurableEnvironment environment) {
		BeanExpressionResolver spel = beanFactory.getBeanExpressionResolver();
		if (spel instanceof StandardBeanExpressionResolver) {
			return new ExpressionResolver(environment, new StandardBeanExpressionResolver(beanFactory.getBeanClassLoader()),
					new EnvironmentExpressionContext(beanFactory, environment));
		}
		return new ExpressionResolver(environment, spel, new BeanExpressionContext(beanFactory, null));
	}

	ConfigurableEnvironment environment() {
		return this.environment;
	}

	/** Resolve an expression; throws what placeholder resolution or SpEL throws. */
	@Nullable Object resolve(String expression) {
		String resolved = this.environment.resolveRequiredPlaceholders(expression);
		if (this.spel == null) {
			return resolved;
		}
		return this.spel.evaluate(resolved, this.spelContext);
	}

	/** Resolve an expression, or {@link #UNRESOLVABLE}. */
	@Nullable Object resolveOrMark(String expression) {
		try {
			return resolve(expression);
		}
		catch (RuntimeException ex) {
			return UNRESOLVABLE;
		}
	}

	/** An Environment over the given sources only, with Boot's relaxed key lookup. */
	static ConfigurableEnvironment environment(MutablePropertySources sources, ConfigurableEnvironment like) {
		ConfigurableEnvironment environment = new CandidateEnvironment(sources);
		environment.setActiveProfiles(like.getActiveProfiles());
		environment.setConversionService(like.getConversionService());
		ConfigurationPropertySources.attach(environment);
		return environment;
	}

	/** The keys an expression's placeholders name, in order, including those nested in names and defaults. */
	static Set<String> placeholderKeys(String expression) {
		Set<String> keys = new LinkedHashSet<>();
		Matcher matcher = PLACEHOLDER_KEY.matcher(expression);
		while (matcher.find()) {
			keys.add(matcher.group(1).trim());
		}
		return keys;
	}

	/** An Environment with exactly the sources given, none of its own. */
	private static final class CandidateEnvironment extends AbstractEnvironment {

		CandidateEnvironment(MutablePropertySources sources) {
			super(sources);
		}

	}

	/** SpEL's {@code environment} is the Environment being tried, not the application's. */
	private static final class EnvironmentExpressionContext extends BeanExpressionContext {

		private final ConfigurableEnvironment environment;

		EnvironmentExpressionContext(ConfigurableBeanFactory beanFactory, ConfigurableEnvironment environment) {
			super(beanFactory, null);
			this.environment = environment;
		}

		@Override
		public boolean containsObject(String key) {
			return ConfigurableApplicationContext.ENVIRONMENT_BEAN_NAME.equals(key) || super.containsObject(key);
		}

		@Override
		public @Nullable Object getObject(String key) {
			return ConfigurableApplicationContext.ENVIRONMENT_BEAN_NAME.equals(key) ? this.environment : super.getObject(key);
		}

	}

}
