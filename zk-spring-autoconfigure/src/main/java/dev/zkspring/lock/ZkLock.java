package dev.zkspring.lock;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs the annotated method under a ZooKeeper lock shared by every instance of the application, so
 * only one caller at a time (or, with {@link Mode#READ}, only readers together) runs it for a key.
 * Invalid use (bad SpEL, unknown wait format, {@link OnBusy#SKIP} on a primitive return type) fails
 * at startup.
 * <p>
 * <b>What it does not protect:</b> the lock orders the calls of the method, not what the caller read
 * before them. A caller that loads an entity and then passes it to a locked method (a controller calling
 * a locked service) writes back a value read outside the lock, and concurrent updates are lost: the last
 * writer wins. Read inside the locked method (pass the id, not the entity):
 * <pre class="code">
 * &#064;ZkLock(key = "'owner:' + #ownerId")
 * &#064;Transactional
 * public void addVisit(int ownerId) {
 *     Owner owner = owners.findById(ownerId);   // read inside the lock
 *     owner.addVisit();
 *     owners.save(owner);
 * }
 * </pre>
 * or, when the read must stay outside, write conditionally with the fencing token
 * ({@link ZkLockContext#getFencingToken()}): only if the row's last token is still the one read and lower
 * than this holder's; a refused write reads again. See docs/locks.md, "What a lock does not protect".
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@Documented
public @interface ZkLock {

	/**
	 * SpEL for the lock key, evaluated against the call: parameters by name ({@code #sku}, needs
	 * {@code -parameters}), by position ({@code #p0}), {@code #root.method}, {@code #root.args},
	 * beans ({@code @bean}). Empty means {@code ClassName.methodName}. Arrays and collections key by
	 * content; a value without a {@code toString()} of its own, or text that is not valid Unicode, is refused.
	 * @return the key expression
	 */
	String key() default "";

	/**
	 * How long to wait for a busy lock: {@code "3s"}, {@code "500ms"}, ISO-8601 such as {@code "PT3S"},
	 * or {@code "0"} to try once; {@code ${...}} placeholders are resolved. Empty means
	 * {@code zk.lock.default-wait}.
	 * @return the wait time
	 */
	String waitTime() default "";

	/**
	 * Whether callers exclude each other ({@link Mode#MUTEX}, {@link Mode#WRITE}) or readers share.
	 * @return the mode
	 */
	Mode mode() default Mode.MUTEX;

	/**
	 * What happens when the lock stays busy for the whole wait time.
	 * @return the policy
	 */
	OnBusy onBusy() default OnBusy.THROW;

	/** How holders of one key relate to each other; all three modes of a key share one lock. */
	enum Mode {

		/** Exclusive: one holder at a time; the same lock as {@link #WRITE}. */
		MUTEX,

		/** Shared: any number of readers together, but never with a writer or a mutex holder. */
		READ,

		/** Exclusive: excludes readers, writers and mutex holders of the key. */
		WRITE;

		boolean isShared() {
			return this == READ;
		}

	}

	/** What a caller gets when the lock stays busy for the whole wait time. */
	enum OnBusy {

		/** Throw {@link ZkLockBusyException}. */
		THROW,

		/** Do not run the method; return {@code null}, or an empty {@code Optional}. */
		SKIP

	}

}
