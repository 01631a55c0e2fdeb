package dev.zkspring.leader;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * What this instance knows of its election group, so a status page or endpoint can answer at once
 * while ZooKeeper is away: the leader and participants as last read, when, and whether that answer is
 * current (read from the ensemble just now) or the last known one.
 * @param leader the participant id of the leader, {@code null} when none was known
 * @param participants the participant ids in election order, the leader first
 * @param asOf when the answer was read from ZooKeeper, {@code null} when it never was
 * @param current whether the answer was read from ZooKeeper for this call; false for the last known one
 */
public record ElectionGroup(@Nullable String leader, List<String> participants, @Nullable Instant asOf,
		boolean current) {

	static final ElectionGroup UNKNOWN = new ElectionGroup(null, List.of(), null, false);

	/** The participant ids, copied. */
	public ElectionGroup {
		participants = List.copyOf(participants);
	}

	/** The leader's participant id, empty when none was known. */
	public Optional<String> leaderId() {
		return Optional.ofNullable(this.leader);
	}

	/** Whether this is a last known answer (or none) rather than one read from ZooKeeper for this call. */
	public boolean stale() {
		return !this.current;
	}

	ElectionGroup asLastKnown() {
		return this.current ? new ElectionGroup(this.leader, this.participants, this.asOf, false) : this;
	}

}
