package dev.zkspring.leader;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs the annotated method only while this instance leads its group, typically on a
 * {@code @Scheduled} method that every instance schedules. Elsewhere the call is skipped and returns
 * {@code null}, or {@code Optional.empty()} for an {@code Optional}; a method returning a primitive is
 * rejected at startup, since it would have nothing to return. Leadership is checked when the call
 * starts; a call in progress is not interrupted when leadership is lost.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface LeaderOnly {

	/**
	 * The leader group whose leader runs the method, one of the names under {@code zk.leader.groups};
	 * empty (the default) means the application's own election.
	 */
	String group() default "";

}
