package dev.zkspring.leader;

import java.lang.reflect.Method;

import org.jspecify.annotations.Nullable;

/**
 * Wraps every {@link LeaderOnly} call so an instrumentation (Micrometer Observations,
 * {@code dev.zkspring.observation}) can time it and put it inside its scope, without the election
 * depending on Micrometer.
 */
@FunctionalInterface
public interface LeaderOnlyInstrumentation {

	/** Instruments nothing. */
	LeaderOnlyInstrumentation NONE = (method, group, call) -> call.proceed(() -> {
	});

	/**
	 * Run the call, observed.
	 * @param method the {@code @LeaderOnly} method
	 * @param group the election's latch path
	 * @param call the gated call; it runs {@code whenSkipped} when this instance did not lead
	 * @return what the call returned
	 * @throws Throwable what the call threw
	 */
	@Nullable Object observe(Method method, String group, Call call) throws Throwable;

	/** The gated call. */
	@FunctionalInterface
	interface Call {

		/** Run the method if this instance leads; otherwise run {@code whenSkipped} and return an empty result. */
		@Nullable Object proceed(Runnable whenSkipped) throws Throwable;

	}

}
