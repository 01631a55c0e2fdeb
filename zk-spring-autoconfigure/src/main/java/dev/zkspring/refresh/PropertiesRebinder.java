package dev.zkspring.refresh;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.ConfigurationPropertiesBindHandlerAdvisor;
import org.springframework.boot.context.properties.ConfigurationPropertiesBinding;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.PropertySourcesPlaceholdersResolver;
import org.springframework.boot.context.properties.bind.handler.IgnoreErrorsBindHandler;
import org.springframework.boot.context.properties.bind.handler.IgnoreTopLevelConverterNotFoundBindHandler;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.context.properties.bind.validation.ValidationBindHandler;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.UnboundElementsSourceFilter;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.boot.validation.MessageInterpolatorFactory;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.convert.ConversionService;
import org.springframework.core.convert.support.DefaultConversionService;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.format.support.FormattingConversionService;
import org.springframework.util.ClassUtils;
import org.springframework.validation.FieldError;
import org.springframework.validation.ObjectError;
import org.springframework.validation.Validator;
import org.springframework.validation.annotation.Validated;
import org.springframework.validation.beanvalidation.LocalValidatorFactoryBean;

import dev.zkspring.config.ZkConfigChangeRejectedException;

/**
 * Binds a {@code @ConfigurationProperties} bean's prefix from candidate sources into a copy of the
 * bean's baseline (see {@link PropertiesBaseline}) as Boot's own binder bound it at startup: the same
 * conversion services and property editors, ignore-invalid and ignore-unknown fields, a nested
 * {@code @ConfigurationProperties} type bound as properties, validation with the
 * {@code configurationPropertiesValidator} bean and, for {@code @Validated} types, JSR-303 when a
 * provider is present, and the application's {@code ConfigurationPropertiesBindHandlerAdvisor}s. Then
 * it plans the writes of the properties the change alters.
 */
final class PropertiesRebinder {

	private static final boolean JSR303_PRESENT = ClassUtils.isPresent("jakarta.validation.Validator",
			PropertiesRebinder.class.getClassLoader());

	private final ConfigurableApplicationContext context;

	private volatile @Nullable Validator jsr303;

	private volatile boolean jsr303Unavailable;

	PropertiesRebinder(ConfigurableApplicationContext context) {
		this.context = context;
	}

	/**
	 * A binder over the given Environment that converts as Boot's binder of
	 * {@code @ConfigurationProperties} does: the application's {@code conversionService} bean if it
	 * has one, else the {@code @ConfigurationPropertiesBinding} converters, the bean factory's
	 * conversion service and Boot's shared one, plus the bean factory's property editors.
	 */
	Binder binder(ConfigurableEnvironment environment) {
		return new Binder(ConfigurationPropertySources.get(environment), new PropertySourcesPlaceholdersResolver(environment),
				conversionServices(), this.context.getBeanFactory()::copyRegisteredEditorsTo, null, null);
	}

	private List<ConversionService> conversionServices() {
		ConfigurableListableBeanFactory beanFactory = this.context.getBeanFactory();
		String name = ConfigurableApplicationContext.CONVERSION_SERVICE_BEAN_NAME;
		if (this.context.containsBean(name) && beanFactory.isTypeMatch(name, ConversionService.class)) {
			return List.of(this.context.getBean(name, ConversionService.class));
		}
		List<ConversionService> services = new ArrayList<>();
		FormattingConversionService binding = new FormattingConversionService();
		DefaultConversionService.addCollectionConverters(binding);
		boolean converters = !ApplicationConversionService
			.addBeans(binding, beanFactory, ConfigurationPropertiesBinding.VALUE)
			.isEmpty();
		if (converters) {
			services.add(binding);
		}
		if (beanFactory.getConversionService() != null) {
			services.add(beanFactory.getConversionService());
		}
		services.add(ApplicationConversionService.getSharedInstance());
		return services;
	}

	ConfigurableListableBeanFactory beanFactory() {
		return this.context.getBeanFactory();
	}

	/**
	 * Bind a copy of the bean's baseline from the new sources and add the writes that bring the bean to
	 * it, for the properties whose bound value the change alters.
	 * @param binder binds from the new sources
	 * @param current binds from the sources the bean was last brought to, or {@code null} when unknown
	 * (then every property that differs from the bean is written)
	 * @throws ZkConfigChangeRejectedException naming the key and the bean when binding, validation
	 * or copying would fail
	 */
	void plan(Binder binder, @Nullable Binder current, RecordedBean.Properties properties, Object bean,
			String target, List<PendingWrite> writes) {
		Object fresh = properties.instanceToBind(bean);
		Bindable<Object> bindable = properties.bindable().withExistingValue(fresh);
		try {
			binder.bind(properties.prefix(), bindable, handler(properties.annotation(), bindable, fresh));
		}
		catch (BindException ex) {
			throw rejection(properties.prefix(), target, ex);
		}
		Object old = (current != null) ? boundBefore(current, properties, bean) : bean;
		try {
			PropertiesCopier.plan(bean, old, fresh, target, writes);
		}
		catch (IllegalStateException ex) {
			String property = ex.getMessage();
			throw new ZkConfigChangeRejectedException(properties.prefix() + "." + property, target,
					"its property '" + property + "' has a getter only and a final field, so it cannot be replaced "
							+ "without readers seeing it half refilled; add a setter",
					null);
		}
	}

	/** The baseline bound from the sources in force, leniently (it is compared, never written); else the bean. */
	private Object boundBefore(Binder current, RecordedBean.Properties properties, Object bean) {
		try {
			Object old = properties.instanceToBind(bean);
			BindHandler lenient = new IgnoreErrorsBindHandler(new PropertiesOnlyBindHandler(
					new IgnoreTopLevelConverterNotFoundBindHandler()));
			current.bind(properties.prefix(), properties.bindable().withExistingValue(old), lenient);
			return old;
		}
		catch (RuntimeException ex) {
			return bean;
		}
	}

	private BindHandler handler(ConfigurationProperties annotation, Bindable<?> bindable, Object fresh) {
		BindHandler handler = new PropertiesOnlyBindHandler(new IgnoreTopLevelConverterNotFoundBindHandler());
		if (annotation.ignoreInvalidFields()) {
			handler = new IgnoreErrorsBindHandler(handler);
		}
		if (!annotation.ignoreUnknownFields()) {
			handler = new NoUnboundElementsBindHandler(handler, new UnboundElementsSourceFilter());
		}
		List<Validator> validators = validators(bindable, fresh);
		if (!validators.isEmpty()) {
			handler = new ValidationBindHandler(handler, validators.toArray(Validator[]::new));
		}
		for (ConfigurationPropertiesBindHandlerAdvisor advisor : this.context
			.getBeanProvider(ConfigurationPropertiesBindHandlerAdvisor.class)
			.orderedStream()
			.toList()) {
			handler = advisor.apply(handler);
		}
		return handler;
	}

	private List<Validator> validators(Bindable<?> bindable, Object fresh) {
		List<Validator> validators = new ArrayList<>();
		if (this.context.containsBean(EnableConfigurationProperties.VALIDATOR_BEAN_NAME)) {
			validators.add(this.context.getBean(EnableConfigurationProperties.VALIDATOR_BEAN_NAME, Validator.class));
		}
		if (bindable.getAnnotation(Validated.class) != null && JSR303_PRESENT) {
			Validator jsr303 = jsr303();
			if (jsr303 != null) {
				validators.add(jsr303);
			}
		}
		if (fresh instanceof Validator self) {
			validators.add(self);
		}
		return validators;
	}

	private @Nullable Validator jsr303() {
		Validator validator = this.jsr303;
		if (validator == null && !this.jsr303Unavailable) {
			validator = Jsr303.create(this.context);
			this.jsr303 = validator;
			this.jsr303Unavailable = (validator == null);
		}
		return validator;
	}

	private static ZkConfigChangeRejectedException rejection(String prefix, String target, BindException ex) {
		if (ex.getCause() instanceof BindValidationException invalid) {
			for (ObjectError error : invalid.getValidationErrors()) {
				String key = (error instanceof FieldError field)
						? invalid.getValidationErrors().getName() + "." + dashed(field.getField())
						: invalid.getValidationErrors().getName().toString();
				// the constraint's name, never its message: a message may interpolate the rejected value
				return new ZkConfigChangeRejectedException(key, target, "the new configuration fails validation: "
						+ key + " violates " + constraint(error), null);
			}
		}
		ConfigurationPropertyName name = ex.getName();
		String key = (name != null) ? name.toString() : prefix;
		Throwable root = ex;
		while (root.getCause() != null) {
			root = root.getCause();
		}
		// no cause attached: Boot's and converters' messages quote the value
		return new ZkConfigChangeRejectedException(key, target, "the new value of " + key + " cannot be bound to "
				+ ex.getTarget().getType() + " (" + root.getClass().getName() + ")", null);
	}

	private static String constraint(ObjectError error) {
		String code = error.getCode();
		if (code == null) {
			return "a validation rule";
		}
		return Character.isUpperCase(code.charAt(0)) ? "@" + code : "the rule '" + code + "'";
	}

	private static String dashed(String path) {
		return path.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
	}

	/** Loaded only when a Bean Validation API is present. */
	private static final class Jsr303 {

		static @Nullable Validator create(ConfigurableApplicationContext context) {
			try {
				LocalValidatorFactoryBean validator = new LocalValidatorFactoryBean();
				validator.setMessageInterpolator(new MessageInterpolatorFactory(context).getObject());
				validator.setApplicationContext(context);
				validator.afterPropertiesSet();
				return validator;
			}
			catch (RuntimeException ex) {
				// an API without a provider: Boot does not validate then either
				return null;
			}
		}

	}

}
