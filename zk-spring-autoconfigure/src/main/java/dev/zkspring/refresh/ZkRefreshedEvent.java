package dev.zkspring.refresh;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.springframework.context.ApplicationEvent;

import dev.zkspring.config.ZkConfigChange;

/**
 * A configuration change was applied: the Environment holds it and every affected
 * {@link RefreshScope} target was rebound. Published once per change on the config center's
 * refresher thread, after the writes, so the new values are visible to whoever sees this event.
 * {@link #getChanges()} carries a consistent set of the new values; {@link #toString()} names keys only.
 */
public class ZkRefreshedEvent extends ApplicationEvent {

	private final List<ZkConfigChange> changes;

	private final List<String> targets;

	private final Map<String, Integer> znodeVersions;

	private final Duration duration;

	/**
	 * Create the event.
	 * @param source the application context that was refreshed
	 * @param changes every key that was added, changed or removed
	 * @param targets the targets that were written, such as {@code bean 'shop' field 'greeting'}
	 * @param znodeVersions the data version of every context znode now in force
	 * @param duration how long validating and applying the change took
	 */
	public ZkRefreshedEvent(Object source, List<ZkConfigChange> changes, List<String> targets,
			Map<String, Integer> znodeVersions, Duration duration) {
		super(source);
		this.changes = List.copyOf(changes);
		this.targets = List.copyOf(targets);
		this.znodeVersions = Map.copyOf(znodeVersions);
		this.duration = duration;
	}

	/** Every key that was added, changed or removed, with its old and new value. */
	public List<ZkConfigChange> getChanges() {
		return this.changes;
	}

	/** The keys of {@link #getChanges()}. */
	public Set<String> getKeys() {
		return this.changes.stream().map(ZkConfigChange::key).collect(Collectors.toUnmodifiableSet());
	}

	/** The targets that were written; targets whose value did not change are not touched nor listed. */
	public List<String> getTargets() {
		return this.targets;
	}

	/** The data version of every context znode now in force. */
	public Map<String, Integer> getZnodeVersions() {
		return this.znodeVersions;
	}

	/** How long validating and applying the change took. */
	public Duration getDuration() {
		return this.duration;
	}

	@Override
	public String toString() {
		return "ZkRefreshedEvent[keys=" + getKeys().stream().sorted().toList() + ", targets=" + this.targets.size()
				+ ", znodes=" + this.znodeVersions + ", " + this.duration.toMillis() + "ms]";
	}

}
