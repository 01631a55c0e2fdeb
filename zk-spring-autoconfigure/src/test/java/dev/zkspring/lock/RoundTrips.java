package dev.zkspring.lock;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.curator.drivers.AdvancedTracerDriver;
import org.apache.curator.drivers.EventTrace;
import org.apache.curator.drivers.OperationTrace;
import org.apache.curator.framework.CuratorFramework;

/** Records every ZooKeeper request a client sends from now on, through Curator's tracer. */
final class RoundTrips extends AdvancedTracerDriver {

	private final List<String> operations = new CopyOnWriteArrayList<>();

	static RoundTrips of(CuratorFramework client) {
		RoundTrips trips = new RoundTrips();
		client.getZookeeperClient().setTracerDriver(trips);
		return trips;
	}

	@Override
	public void addTrace(OperationTrace trace) {
		this.operations.add(trace.getName());
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

}
