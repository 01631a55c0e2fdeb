package dev.zkspring.refresh;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeanUtils;
import org.springframework.boot.context.properties.ConfigurationProperties;
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
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.util.ClassUtils;
import org.springframework.validation.FieldError;
import org.springframework.validation.ObjectError;
import org.springframework.validation.Validator;
import org.springframework.validation.annotation.Validated;
import org.springframework.validation.beanvalidation.LocalValidatorFactoryBean;

import dev.zkspring.config.ZkConfigChangeRejectedException;

/**
 * Binds a {@code @ConfigurationProperties} bean's prefix from candidate sources into a fresh
 * instance with Boot's {@link Binder}, as Boot bound it at startup (ignore-invalid and
 * ignore-unknown fields, JSR-303 validation for {@code @Validated} types when a provider is present,
 * the {@code configurationPropertiesValidator} bean), then plans copying it over the bean.
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

	Binder binder(ConfigurableEnvironment candidate) {
		List<ConversionService> conversionServices = new ArrayList<>();
		ConversionService own = this.context.getBeanFactory().getConversionService();
		if (own != null) {
			conversionServices.add(own);
		}
		conversionServices.add(ApplicationConversionService.getSharedInstance());
		return new Binder(ConfigurationPropertySources.get(candidate), new PropertySourcesPlaceholdersResolver(candidate),
				conversionServices, this.context.getBeanFactory()::copyRegisteredEditorsTo, null, null);
	}

	/**
	 * Bind a fresh instance and add the writes that copy it over the bean.
	 * @throws ZkConfigChangeRejectedException naming the key and the bean when binding, validation
	 * or copying would fail
	 */
	void plan(Binder binder, RecordedBean.Properties properties, Object bean, String beanName, String target,
			List<PendingWrite> writes) {
		Object fresh = BeanUtils.instantiateClass(bean.getClass());
		Bindable<Object> bindable = properties.bindable().withExistingValue(fresh);
		try {
			binder.bind(properties.prefix(), bindable, handler(properties.annotation(), bindable, fresh));
		}
		catch (BindException ex) {
			throw rejection(properties.prefix(), target, ex);
		}
		int before = writes.size();
		try {
			PropertiesCopier.plan(bean, fresh, target, "", writes);
		}
		catch (IllegalStateException ex) {
			String property = ex.getMessage();
			throw new ZkConfigChangeRejectedException(properties.prefix() + "." + property, target,
					"its property '" + property + "' has a getter only and a final field, so it cannot be replaced "
							+ "without readers seeing it half refilled; add a setter",
					null);
		}
		if (writes.size() > before) {
			// derived state follows the properties it is computed from, as at startup
			PendingWrite.Action callbacks = InitCallbacks.of(bean, beanName, this.context.getBeanFactory());
			if (callbacks != null) {
				writes.add(new PendingWrite(target + " init callbacks", callbacks));
			}
		}
	}

	private BindHandler handler(ConfigurationProperties annotation, Bindable<?> bindable, Object fresh) {
		BindHandler handler = new IgnoreTopLevelConverterNotFoundBindHandler();
		if (annotation.ignoreInvalidFields()) {
			handler = new IgnoreErrorsBindHandler(handler);
		}
		if (!annotation.ignoreUnknownFields()) {
			handler = new NoUnboundElementsBindHandler(handler, new UnboundElementsSourceFilter());
		}
		List<Validator> validators = validators(bindable, fresh);
		return validators.isEmpty() ? handler : new ValidationBindHandler(handler, validators.toArray(Validator[]::new));
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
