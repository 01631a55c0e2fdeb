package dev.zkspring.actuate;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import org.apache.curator.drivers.AdvancedTracerDriver;
import org.apache.curator.drivers.EventTrace;
import org.apache.curator.drivers.OperationTrace;
import org.apache.curator.drivers.TracerDriver;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.DefaultTracerDriver;
import org.apache.zookeeper.KeeperException;

/**
 * ZooKeeper's own answer time, per operation, from inside the application: Curator's tracer driver bridged
 * to Micrometer. Every request the one client makes is timed in {@code zk.client.requests}, tagged by
 * operation kind ({@code create}, {@code getData}...) and ZooKeeper's result code ({@code ok},
 * {@code nonode}, {@code connectionloss}...); every connection event counts in {@code zk.client.events}.
 * Never a path (cardinality, and paths may carry keys). A driver the application installed before keeps
 * being told.
 */
public final class ZkRequestMetrics extends AdvancedTracerDriver implements MeterBinder {

	/** Curator's trace names ({@code GetDataBuilderImpl-Foreground}) to ZooKeeper's operation names. */
	private static final Map<String, String> OPERATIONS = Map.ofEntries(Map.entry("CreateBuilderImpl", "create"),
			Map.entry("DeleteBuilderImpl", "delete"), Map.entry("ExistsBuilderImpl", "exists"),
			Map.entry("GetDataBuilderImpl", "getData"), Map.entry("SetDataBuilderImpl", "setData"),
			Map.entry("GetChildrenBuilderImpl", "getChildren"), Map.entry("CuratorMultiTransactionImpl", "multi"),
			Map.entry("SyncBuilderImpl", "sync"), Map.entry("GetACLBuilderImpl", "getACL"),
			Map.entry("SetACLBuilderImpl", "setACL"), Map.entry("AddWatchBuilderImpl", "addWatch"),
			Map.entry("RemoteWatches", "removeWatches"), Map.entry("GetConfigBuilderImpl", "getConfig"),
			Map.entry("ReconfigBuilderImpl", "reconfig"), Map.entry("multi", "multi"), Map.entry("exists", "exists"),
			Map.entry("getData", "getData"), Map.entry("getChildren", "getChildren"));

	/** Events listed at 0 from the start: the client connects before the registry exists. */
	private static final List<String> ZERO_EVENTS = List.of("syncconnected", "disconnected", "expired", "session-expired");

	private final CompositeMeterRegistry meters = new CompositeMeterRegistry();

	private final Map<String, Timer> timers = new ConcurrentHashMap<>();

	private final Map<String, Counter> counters = new ConcurrentHashMap<>();

	private final TracerDriver previous;

	private ZkRequestMetrics(TracerDriver previous) {
		this.previous = previous;
	}

	/**
	 * Time the client's requests from now on.
	 * @param client the application's client
	 * @return the meters, to bind to the application's registries
	 */
	public static ZkRequestMetrics install(CuratorFramework client) {
		TracerDriver previous = client.getZookeeperClient().getTracerDriver();
		if (previous instanceof ZkRequestMetrics installed) {
			return installed;
		}
		ZkRequestMetrics metrics = new ZkRequestMetrics(previous);
		client.getZookeeperClient().setTracerDriver(metrics);
		return metrics;
	}

	/** Joins the registry, then registers the main connection events at 0, so {@code increase()} sees the first. */
	@Override
	public void bindTo(MeterRegistry registry) {
		this.meters.add(registry);
		for (String event : ZERO_EVENTS) {
			events(event);
		}
	}

	@Override
	public void addTrace(OperationTrace trace) {
		String operation = operation(trace.getName());
		String result = result(trace.getReturnCode());
		this.timers.computeIfAbsent(operation + ' ' + result, (key) -> Timer.builder("zk.client.requests")
			.description("ZooKeeper's answer time for the client's requests, by operation and result")
			.tag("operation", operation)
			.tag("result", result)
			.register(this.meters)).record(trace.getLatencyMs(), TimeUnit.MILLISECONDS);
		if (this.previous instanceof AdvancedTracerDriver advanced) {
			advanced.addTrace(trace);
		}
		else if (!(this.previous instanceof DefaultTracerDriver)) {
			this.previous.addTrace(trace.getName(), trace.getLatencyMs(), TimeUnit.MILLISECONDS);
		}
	}

	@Override
	public void addEvent(EventTrace trace) {
		events(trace.getName().toLowerCase(Locale.ROOT)).increment();
		if (this.previous instanceof AdvancedTracerDriver advanced) {
			advanced.addEvent(trace);
		}
		else if (!(this.previous instanceof DefaultTracerDriver)) {
			this.previous.addCount(trace.getName(), 1);
		}
	}

	private Counter events(String event) {
		return this.counters.computeIfAbsent(event, (key) -> Counter.builder("zk.client.events")
			.description("Connection events of the client (syncconnected, disconnected, expired, session-expired...)")
			.tag("event", event)
			.register(this.meters));
	}

	static String operation(String traceName) {
		int dash = traceName.indexOf('-');
		String kind = (dash > 0) ? traceName.substring(0, dash) : traceName;
		return OPERATIONS.getOrDefault(kind, "other");
	}

	static String result(int returnCode) {
		KeeperException.Code code = KeeperException.Code.get(returnCode);
		return (code != null) ? code.name().toLowerCase(Locale.ROOT) : "other";
	}

}
