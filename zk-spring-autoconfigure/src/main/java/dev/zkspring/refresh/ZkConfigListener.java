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

	/**
	 * Keys, such as {@code shop.max-items} or {@code shop.items[0]}, whose change calls the method;
	 * matched by Boot's relaxed names, so {@code shop.maxItems} in a document matches too.
	 */
	String[] keys() default {};

	/** Key prefixes, such as {@code shop}, that match the prefix itself and every key below it (relaxed names). */
	String[] prefixes() default {};

}
