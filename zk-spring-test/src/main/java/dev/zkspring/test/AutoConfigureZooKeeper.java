package dev.zkspring.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Chooses which ZooKeeper a Spring test context uses, as {@code @AutoConfigureTestDatabase} does for a
 * database. Without it, every test context that has zk-spring uses the test kit's shared in-process
 * server ({@link Replace#ANY}); {@code @AutoConfigureZooKeeper(replace = Replace.NONE)} keeps the
 * configured {@code zk.connect}, for a real server such as one the CI starts.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
public @interface AutoConfigureZooKeeper {

	/** Whether the configured ensemble is replaced by the shared in-process server. */
	Replace replace() default Replace.ANY;

	/** What to replace. */
	enum Replace {

		/**
		 * Whatever {@code zk.connect} says: the context connects to the shared in-process server, under a
		 * chroot of its own, so no two test contexts see each other's documents, locks or elections.
		 */
		ANY,

		/** Nothing: the context connects to the configured {@code zk.connect}, namespace and root. */
		NONE

	}

}
