package dev.zkspring.config;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.springframework.context.ApplicationEvent;
import org.springframework.core.env.PropertySource;

/**
 * The configuration from ZooKeeper changed and the change was accepted: the config center's property
 * source in the Environment already holds {@link #getPropertySources() the new sources} when this is
 * published, which is what rebinding beans in place needs.
 * <p>
 * Published once per accepted change, synchronously on the config center's single refresher thread:
 * listeners run on that thread, two events never interleave and listeners see them in order. Changes
 * that arrive while one is being processed (a listener included) are coalesced into the next event,
 * whose diff starts where the previous one ended. A write that changes no effective value publishes
 * nothing. A listener that throws is logged as such and the change stays applied; zk-spring's own
 * listeners (metrics, activity, fleet) run before the application's, so one of those cannot keep
 * them from the event. Values are only inside {@link #getChanges()}; {@link #toString()} names keys only.
 */
public class ZkConfigChangedEvent extends ApplicationEvent {

	private final List<PropertySource<?>> propertySources;

	private final List<ZkConfigChange> changes;

	/**
	 * Create the event.
	 * @param source the application context whose Environment changed
	 * @param propertySources the config center's new sources, the highest precedence first
	 * @param changes the keys whose effective value from ZooKeeper changed
	 */
	public ZkConfigChangedEvent(Object source, List<PropertySource<?>> propertySources, List<ZkConfigChange> changes) {
		super(source);
		this.propertySources = List.copyOf(propertySources);
		this.changes = List.copyOf(changes);
	}

	/** The config center's sources now in force, the highest precedence first. */
	public List<PropertySource<?>> getPropertySources() {
		return this.propertySources;
	}

	/** Every key that was added, changed or removed, with its old and new value. */
	public List<ZkConfigChange> getChanges() {
		return this.changes;
	}

	/** The keys of {@link #getChanges()}, for listeners that only need to know what to rebind. */
	public Set<String> getKeys() {
		return this.changes.stream().map(ZkConfigChange::key).collect(Collectors.toUnmodifiableSet());
	}

	@Override
	public String toString() {
		return "ZkConfigChangedEvent" + this.changes;
	}

}
