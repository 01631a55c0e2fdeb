package dev.zkspring.refresh;

/**
 * One write that phase 1 of a refresh prepared and phase 2 performs.
 * @param target the target written, such as {@code bean 'shop' field 'greeting'}
 * @param action the write itself
 */
record PendingWrite(String target, Action action) {

	/** A write; what it throws is logged, since phase 2 cannot be undone. */
	@FunctionalInterface
	interface Action {

		void run() throws Throwable;

	}

}
