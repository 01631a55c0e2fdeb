package dev.zkspring.refresh;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a bean method to call after a configuration change has been applied to every
 * {@link RefreshScope} bean, with the part of the per-key diff it asked for. The method takes no
 * parameter, a {@code List<ZkConfigChange>} (the matching keys) or a {@link ZkRefreshedEvent}. It
 * runs on the config center's refresher thread, once per applied change that touches a matching key.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface ZkConfigListener {

	/** Exact keys, such as {@code shop.greeting}, whose change calls the method. */
	String[] keys() default {};

	/** Key prefixes, such as {@code shop}, that match the prefix itself and every key below it. */
	String[] prefixes() default {};

}
