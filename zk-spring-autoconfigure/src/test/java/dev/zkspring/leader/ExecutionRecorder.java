package dev.zkspring.leader;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Records every execution of leader-only work (instance, epoch, start, end) over a whole test class
 * and, after the class, asserts that no two executions overlapped in time, on any instances.
 */
public final class ExecutionRecorder implements AfterAllCallback {

	private final List<Execution> executions = new CopyOnWriteArrayList<>();

	public void record(String instance, long epoch, long startNanos, long endNanos) {
		this.executions.add(new Execution(instance, epoch, startNanos, endNanos));
	}

	public List<Execution> all() {
		return List.copyOf(this.executions);
	}

	public List<Execution> by(String instance, long startedAfterNanos) {
		return startedAfter(startedAfterNanos).stream().filter((execution) -> execution.instance().equals(instance)).toList();
	}

	public List<Execution> startedAfter(long nanos) {
		return this.executions.stream().filter((execution) -> execution.startNanos() > nanos).toList();
	}

	public List<String> instancesSince(long nanos) {
		return startedAfter(nanos).stream().map(Execution::instance).distinct().toList();
	}

	/** Fails when any two recorded executions overlap in time, naming both. */
	public void assertNoOverlap() {
		List<Execution> sorted = new ArrayList<>(this.executions);
		sorted.sort(Comparator.comparingLong(Execution::startNanos));
		Execution latest = null;
		for (Execution execution : sorted) {
			if (latest != null && execution.startNanos() < latest.endNanos()) {
				fail("Overlapping executions: " + latest + " ends " + (latest.endNanos() - execution.startNanos()) / 1000
						+ " us after " + execution + " starts");
			}
			if (latest == null || execution.endNanos() > latest.endNanos()) {
				latest = execution;
			}
		}
	}

	@Override
	public void afterAll(ExtensionContext context) {
		assertThat(this.executions).as("executions recorded over the test class").isNotEmpty();
		assertNoOverlap();
	}

	public record Execution(String instance, long epoch, long startNanos, long endNanos) {

		@Override
		public String toString() {
			return "[" + this.instance + ", epoch " + this.epoch + ", " + this.startNanos / 1_000_000 + ".."
					+ this.endNanos / 1_000_000 + " ms]";
		}

	}

}
