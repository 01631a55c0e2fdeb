package dev.zkspring.benchmarks;

import java.lang.reflect.Field;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

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

	/** The call sites, in the order a lock call makes them. */
	static final List<String> SITES = List.of("wait start", "wait stop", "hold start", "scope open", "scope close",
			"hold stop");

	/** Nanoseconds per call site since the last {@link #take()}, indexed as {@link #SITES}. */
	private final long[] sites = new long[SITES.size()];

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

	/** Nanoseconds spent at each call site since the last call, indexed as {@link #SITES}. */
	long[] take() {
		long[] taken = this.sites.clone();
		Arrays.fill(this.sites, 0);
		return taken;
	}

	private void add(int site, long start) {
		this.sites[site] += System.nanoTime() - start;
	}

	@Override
	public Attempt acquiring(String name, ZkLock.Mode mode, Duration wait) {
		long start = System.nanoTime();
		Attempt attempt = this.delegate.acquiring(name, mode, wait);
		add(0, start);
		return new Attempt() {

			@Override
			public void ended(Outcome outcome, @Nullable Throwable error) {
				long start = System.nanoTime();
				attempt.ended(outcome, error);
				ObservationProbe.this.add(1, start);
			}

			@Override
			public Hold holding() {
				long start = System.nanoTime();
				Hold hold = attempt.holding();
				ObservationProbe.this.add(2, start);
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
				ObservationProbe.this.add(3, start);
				return () -> {
					long closing = System.nanoTime();
					scope.close();
					ObservationProbe.this.add(4, closing);
				};
			}

			@Override
			public void released(@Nullable Throwable error, boolean lost) {
				long start = System.nanoTime();
				hold.released(error, lost);
				ObservationProbe.this.add(5, start);
			}

		};
	}

}
