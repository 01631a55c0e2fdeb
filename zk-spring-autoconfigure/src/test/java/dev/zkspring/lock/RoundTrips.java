package dev.zkspring.lock;

import java.lang.reflect.Field;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.curator.drivers.AdvancedTracerDriver;
import org.apache.curator.drivers.EventTrace;
import org.apache.curator.drivers.OperationTrace;
import org.apache.curator.framework.CuratorFramework;

/**
 * Records every ZooKeeper request a client sends from now on, through Curator's tracer: its name, when
 * it was started (just before it was sent) and when its reply was processed.
 */
final class RoundTrips extends AdvancedTracerDriver {

	/** Curator keeps the start of a request's trace private; the timing of round trips needs it. */
	private static final Field START;

	static {
		try {
			START = OperationTrace.class.getDeclaredField("startTimeNanos");
			START.setAccessible(true);
		}
		catch (ReflectiveOperationException ex) {
			throw new ExceptionInInitializerError(ex);
		}
	}

	private final List<String> operations = new CopyOnWriteArrayList<>();

	private final List<Request> requests = new CopyOnWriteArrayList<>();

	static RoundTrips of(CuratorFramework client) {
		RoundTrips trips = new RoundTrips();
		client.getZookeeperClient().setTracerDriver(trips);
		return trips;
	}

	@Override
	public void addTrace(OperationTrace trace) {
		long replied = System.nanoTime();
		this.operations.add(trace.getName());
		try {
			this.requests.add(new Request(trace.getName(), START.getLong(trace), replied));
		}
		catch (IllegalAccessException ex) {
			throw new IllegalStateException(ex);
		}
	}

	@Override
	public void addEvent(EventTrace trace) {
	}

	List<String> operations() {
		return this.operations;
	}

	int count() {
		return this.operations.size();
	}

	/**
	 * How many round trips the recorded requests cost one after another: a request sent before the
	 * reply to an earlier one was processed shares its round trip; one sent after every earlier reply
	 * starts a new one.
	 */
	int sequential() {
		List<Request> bySend = this.requests.stream().sorted(Comparator.comparingLong(Request::sent)).toList();
		int trips = 0;
		long lastReply = Long.MIN_VALUE;
		for (Request request : bySend) {
			if (trips == 0 || request.sent() - lastReply > 0) {
				trips++;
			}
			lastReply = (lastReply == Long.MIN_VALUE || request.replied() - lastReply > 0) ? request.replied() : lastReply;
		}
		return trips;
	}

	/** One request: its name, when it was sent and when its reply was processed ({@link System#nanoTime()}). */
	record Request(String name, long sent, long replied) {
	}

}
