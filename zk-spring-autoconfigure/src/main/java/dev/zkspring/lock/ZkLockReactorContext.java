package dev.zkspring.lock;

import java.util.Optional;

import reactor.core.publisher.Mono;
import reactor.util.context.ContextView;

/**
 * The lock held by a {@code @ZkLock} method returning {@code Mono} or {@code Flux}, as the method's publisher
 * sees it in its Reactor context: reactive code has no thread to ask {@link ZkLockContext#current()}. Its
 * fencing token is already read (off the event loop), so {@link ZkLockContext#getFencingToken()} does not
 * block. Needs Reactor on the classpath.
 */
public final class ZkLockReactorContext {

	/** The Reactor context key under which the hold ({@link ZkLockContext}) is stored. */
	public static final String KEY = "dev.zkspring.lock.ZkLockContext";

	private ZkLockReactorContext() {
	}

	/**
	 * The hold in the given Reactor context, if any.
	 * @param context a Reactor context, e.g. from {@code Mono.deferContextual}
	 * @return the hold, or empty outside a reactive {@code @ZkLock} method
	 */
	public static Optional<ZkLockContext> from(ContextView context) {
		return context.getOrEmpty(KEY);
	}

	/**
	 * The hold of the subscriber's context, or an {@link IllegalStateException} signal when there is none.
	 * @return a Mono of the hold
	 */
	public static Mono<ZkLockContext> current() {
		return Mono.deferContextual((context) -> from(context).map(Mono::just)
			.orElseGet(() -> Mono.error(new IllegalStateException("The Reactor context holds no zk-spring lock; "
					+ "ZkLockReactorContext.current() is only available inside the publisher of a reactive "
					+ "@ZkLock method."))));
	}

}
