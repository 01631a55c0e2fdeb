package dev.zkspring.leader.shard;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import tools.jackson.databind.json.JsonMapper;

/**
 * One fire time of a sharded job, as its dispatch node holds it: the settings that fire time runs with
 * (so a change of N or of the parameters applies to a whole fire time, on every instance at once), the
 * owner of each shard, and which shards were handed over after their owner was lost. Every change to it
 * is conditional on its version, and each owner's claim checks that version, so a shard handed over can
 * no longer be claimed by its previous owner.
 *
 * @param group the job's group
 * @param job the job's name
 * @param trigger the trigger key that fired
 * @param fireTime its scheduled fire time (epoch millis)
 * @param epoch the dispatching leadership's epoch
 * @param dispatcher the instance that dispatched it
 * @param parameters each shard's parameter, by index (its length is the number of shards)
 * @param owners each shard's owner, by index
 * @param requestsRecovery whether the job requests recovery: shards of a lost owner are handed over
 * @param handedOver by index: the shard's owner was lost before it claimed it, and another took it
 * @param recovering by index: the shard's owner was lost while running it, and another re-runs it
 */
record FireRecord(String group, String job, String trigger, long fireTime, long epoch, String dispatcher, List<String> parameters,
		List<String> owners, boolean requestsRecovery, List<Boolean> handedOver, List<Boolean> recovering) {

	private static final JsonMapper mapper = JsonMapper.builder().build();

	int total() {
		return this.owners.size();
	}

	/** The claim node's name for a shard: a re-run after its owner was lost claims a node of its own. */
	String claimName(int index) {
		return Boolean.TRUE.equals(this.recovering.get(index)) ? index + ".recovery" : String.valueOf(index);
	}

	/** This record with one shard given to another owner, flagged as handed over or as recovering. */
	FireRecord reassign(int index, String owner, boolean recover) {
		List<String> newOwners = new ArrayList<>(this.owners);
		newOwners.set(index, owner);
		List<Boolean> newHandedOver = new ArrayList<>(this.handedOver);
		List<Boolean> newRecovering = new ArrayList<>(this.recovering);
		if (recover) {
			newRecovering.set(index, true);
		}
		else {
			newHandedOver.set(index, true);
		}
		return new FireRecord(this.group, this.job, this.trigger, this.fireTime, this.epoch, this.dispatcher, this.parameters, newOwners,
				this.requestsRecovery, newHandedOver, newRecovering);
	}

	byte[] toBytes() {
		return mapper.writeValueAsBytes(this);
	}

	static @Nullable FireRecord parse(byte[] data) {
		try {
			FireRecord record = mapper.readValue(data, FireRecord.class);
			int total = record.owners().size();
			if (record.parameters().size() != total || record.handedOver().size() != total
					|| record.recovering().size() != total) {
				return null;
			}
			return record;
		}
		catch (RuntimeException ex) {
			return null;
		}
	}

	/** The run of one shard, as its claim node holds it: who, when, and how it ended (no end while it runs). */
	record Run(String instance, long start, @Nullable Long end, @Nullable String outcome, @Nullable String error) {

		byte[] toBytes() {
			return mapper.writeValueAsBytes(this);
		}

		static @Nullable Run parse(byte[] data) {
			try {
				return mapper.readValue(data, Run.class);
			}
			catch (RuntimeException ex) {
				return null;
			}
		}

	}

}
