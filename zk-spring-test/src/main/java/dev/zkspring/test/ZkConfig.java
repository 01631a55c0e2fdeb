package dev.zkspring.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A context document written to ZooKeeper before the test's application context starts, so the
 * application loads it as it would in production: {@code @ZkConfig(context = "orders", json = "{...}")}
 * or {@code @ZkConfig(context = "orders", location = "classpath:zk/orders.json")}. Repeatable; the
 * documents are part of the context's cache key, so test classes with different documents never share a
 * context.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@Repeatable(ZkConfig.List.class)
public @interface ZkConfig {

	/** The context name, such as {@code application}, {@code orders} or {@code orders,dev}. */
	String context();

	/** The document, one JSON object; exactly one of {@code json} and {@code location}. */
	String json() default "";

	/** A resource holding the document, such as {@code classpath:zk/orders.json}. */
	String location() default "";

	/** Holds repeated {@link ZkConfig} annotations. */
	@Target(ElementType.TYPE)
	@Retention(RetentionPolicy.RUNTIME)
	@Documented
	@Inherited
	@interface List {

		/** The documents. */
		ZkConfig[] value();

	}

}
