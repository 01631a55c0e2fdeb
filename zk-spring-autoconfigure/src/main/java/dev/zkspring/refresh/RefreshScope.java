package dev.zkspring.refresh;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a bean (its class, or the {@code @Bean} method that creates it) whose {@code @Value} fields
 * and setters, and whose {@code @ConfigurationProperties}, are rebound in place when the
 * configuration in ZooKeeper changes. The bean is not recreated: callers keep their reference and
 * never wait for a refresh. A change that would break any such bean is refused as a whole.
 */
@Target({ ElementType.TYPE, ElementType.METHOD })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface RefreshScope {

}
