package dev.zkspring.benchmarks;

import java.lang.reflect.Field;
import java.time.Duration;

import org.jspecify.annotations.Nullable;

import dev.zkspring.lock.ZkLock;
import dev.zkspring.lock.ZkLockInstrumentation;
import dev.zkspring.lock.ZkLockTemplate;

/**
 * Benchmark-only: times the instrumentation's calls where a real {@code @ZkLock} call makes them (start and
 * stop of the wait, start of the hold, its scope opened and closed, its stop), so the observations' cost
 * inside the lock path (after a pause, between ZooKeeper round trips) can be set beside their cost in a hot
 * loop ({@link ObservationCost}). Installed around the template's instrumentation only for the probe's own
 * pass, then taken off, so the tables never time it. One caller thread at a time.
 */
final class ObservationProbe implements ZkLockInstrumentation {

	private final ZkLockTemplate template;

	private final ZkLockInstrumentation delegate;

	private long nanos;

	private ObservationProbe(ZkLockTemplate template, ZkLockInstrumentation delegate) {
		this.template = template;
		this.delegate = delegate;
	}

	/** Wrap the template's current instrumentation (read by reflection: the template offers only a setter). */
	static ObservationProbe install(ZkLockTemplate template) {
		try {
			Field field = ZkLockTemplate.class.getDeclaredField("instrumentation");
			field.setAccessible(true);
			ObservationProbe probe = new ObservationProbe(template, (ZkLockInstrumentation) field.get(template));
			template.setInstrumentation(probe);
			return probe;
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException("the probe cannot read ZkLockTemplate's instrumentation", ex);
		}
	}

	/** Put the template's own instrumentation back. */
	void remove() {
		this.template.setInstrumentation(this.delegate);
	}

	/** Nanoseconds spent in the instrumentation since the last call. */
	long take() {
		long taken = this.nanos;
		this.nanos = 0;
		return taken;
	}

	@Override
	public Attempt acquiring(String name, ZkLock.Mode mode, Duration wait) {
		long start = System.nanoTime();
		Attempt attempt = this.delegate.acquiring(name, mode, wait);
		this.nanos += System.nanoTime() - start;
		return new Attempt() {

			@Override
			public void ended(Outcome outcome, @Nullable Throwable error) {
				long start = System.nanoTime();
				attempt.ended(outcome, error);
				ObservationProbe.this.nanos += System.nanoTime() - start;
			}

			@Override
			public Hold holding() {
				long start = System.nanoTime();
				Hold hold = attempt.holding();
				ObservationProbe.this.nanos += System.nanoTime() - start;
				return timed(hold);
			}

		};
	}

	private Hold timed(Hold hold) {
		return new Hold() {

			@Override
			public Scope openScope() {
				long start = System.nanoTime();
				Scope scope = hold.openScope();
				ObservationProbe.this.nanos += System.nanoTime() - start;
				return () -> {
					long closing = System.nanoTime();
					scope.close();
					ObservationProbe.this.nanos += System.nanoTime() - closing;
				};
			}

			@Override
			public void released(@Nullable Throwable error, boolean lost) {
				long start = System.nanoTime();
				hold.released(error, lost);
				ObservationProbe.this.nanos += System.nanoTime() - start;
			}

		};
	}

}
