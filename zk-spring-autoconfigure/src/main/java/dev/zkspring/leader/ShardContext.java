package dev.zkspring.leader;

import java.util.Optional;

import org.jspecify.annotations.Nullable;
import org.quartz.JobDataMap;
import org.quartz.JobExecutionContext;

/**
 * Which shard of a sharded job ({@code zk.quartz.jobs.<job>.shards}) an execution runs: exists so a job
 * learns its part of the work in one call. Plain Quartz jobs can read the same values from the merged
 * {@code JobDataMap} under {@link #INDEX_KEY}, {@link #TOTAL_KEY} and {@link #PARAMETER_KEY}.
 *
 * @param index the shard this execution runs, from 0
 * @param total how many shards this fire time has
 * @param parameter the shard's parameter ({@code zk.quartz.jobs.<job>.shard-parameters}), empty when none
 * @param fireTime the scheduled fire time (epoch millis) this execution belongs to
 */
public record ShardContext(int index, int total, String parameter, long fireTime) {

	/** Job data key of the shard index (an int). */
	public static final String INDEX_KEY = "zk.shard.index";

	/** Job data key of the number of shards (an int). */
	public static final String TOTAL_KEY = "zk.shard.total";

	/** Job data key of the shard's parameter (a string, empty when none). */
	public static final String PARAMETER_KEY = "zk.shard.parameter";

	/** Job data key of the scheduled fire time the shard belongs to (epoch millis, a long). */
	public static final String FIRE_TIME_KEY = "zk.shard.fire-time";

	/** The shard of an execution, or empty for an execution of a job that is not sharded. */
	public static Optional<ShardContext> of(JobExecutionContext context) {
		return of(context.getMergedJobDataMap());
	}

	/** The shard named in job data, or empty when it names none. */
	public static Optional<ShardContext> of(JobDataMap data) {
		if (!data.containsKey(INDEX_KEY) || !data.containsKey(TOTAL_KEY)) {
			return Optional.empty();
		}
		@Nullable Object parameter = data.get(PARAMETER_KEY);
		@Nullable Object fireTime = data.get(FIRE_TIME_KEY);
		return Optional.of(new ShardContext(data.getIntValue(INDEX_KEY), data.getIntValue(TOTAL_KEY),
				(parameter != null) ? parameter.toString() : "",
				(fireTime instanceof Number number) ? number.longValue() : 0L));
	}

	/** The shard of an execution. @throws IllegalStateException when the job is not sharded */
	public static ShardContext require(JobExecutionContext context) {
		return of(context).orElseThrow(() -> new IllegalStateException(context.getJobDetail().getKey()
				+ " runs unsharded: set zk.quartz.jobs." + context.getJobDetail().getKey().getName() + ".shards"));
	}

}
