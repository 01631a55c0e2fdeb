package dev.zkspring.publish;

import org.jspecify.annotations.Nullable;

/**
 * The seam an application's observability fills to see each write of a {@link ConfigPublisher} or
 * {@link ConfigCanaries} (dev.zkspring.observation makes them {@code zk.config.publish} observations); without
 * Micrometer types, so the command-line tool, which has no registry, runs with {@link #NONE} and is unchanged.
 */
@FunctionalInterface
public interface PublishInstrumentation {

	/** Runs each write as it is: the tool's, and a publisher's without a registry. */
	PublishInstrumentation NONE = new PublishInstrumentation() {

		@Override
		public <T> T observe(String operation, @Nullable String context, boolean dryRun, Write<T> write)
				throws Exception {
			return write.run();
		}

	};

	/**
	 * Run one write operation and return what it returns, or throw what it throws.
	 * @param operation the history kind it writes: {@code put}, {@code rollback}, {@code delete}, {@code import},
	 * {@code canary}, {@code promote} or {@code abort}
	 * @param context the context's name; {@code null} for an import (its contexts are those of the publications
	 * it returns)
	 * @param dryRun whether the operation only validates and computes the diff
	 * @param write the operation: a {@link Publication}, a list of them (import) or a {@link Revision} (abort)
	 */
	<T> T observe(String operation, @Nullable String context, boolean dryRun, Write<T> write) throws Exception;

	/** One write operation of a publisher. */
	@FunctionalInterface
	interface Write<T> {

		T run() throws Exception;

	}

}
