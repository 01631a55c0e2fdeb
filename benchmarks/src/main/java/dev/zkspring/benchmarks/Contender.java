package dev.zkspring.benchmarks;

/** One library's way of doing a scenario's operation, measured against the others. */
interface Contender extends AutoCloseable {

	String name();

	/** One timed operation; called from as many threads as the scenario uses. */
	void op() throws Exception;

	@Override
	default void close() throws Exception {
	}

}
