package dev.zkspring.leader.shard;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.mock.env.MockEnvironment;

import dev.zkspring.leader.shard.ShardSettings.Entry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** Shard settings: parsed from any source, a bad entry refused by key (never echoing a value), the old one kept. */
class ShardSettingsTests {

	private static final String KEY = "zk.quartz.jobs.report";

	@Test
	void parsesShardsAndParameters() {
		ShardSettings.Shards shards = ShardSettings.parse(KEY, new Entry("4", "0=Beijing, 1=Shanghai,3="));
		assertThat(shards.total()).isEqualTo(4);
		assertThat(List.of(shards.parameter(0), shards.parameter(1), shards.parameter(2), shards.parameter(3)))
			.containsExactly("Beijing", "Shanghai", "", "");
	}

	@Test
	void refusesBadEntriesByKeyWithoutTheirValues() {
		Map<Entry, String> refused = Map.of(new Entry("four", null), KEY + ".shards is not a whole number",
				new Entry("0", null), KEY + ".shards must be from 1 to 1000",
				new Entry("1001", null), KEY + ".shards must be from 1 to 1000",
				new Entry(null, "0=Beijing"), KEY + ".shard-parameters needs " + KEY + ".shards",
				new Entry("2", "0=Beijing,Secret"), KEY + ".shard-parameters entry 2 is not index=parameter",
				new Entry("2", "2=Secret"), KEY + ".shard-parameters entry 1 names a shard index outside",
				new Entry("2", "x=Secret"), KEY + ".shard-parameters entry 1 does not start with a shard index",
				new Entry("2", "1=Secret,1=Other"), KEY + ".shard-parameters names one shard index twice");
		refused.forEach((entry, message) -> assertThatIllegalArgumentException()
			.isThrownBy(() -> ShardSettings.parse(KEY, entry))
			.withMessageStartingWith(message)
			.withMessageNotContaining("Secret")
			.withMessageNotContaining("four"));
	}

	@Test
	void parametersGivenAsAMapAreReadAsTheTextForm() {
		// YAML's shard-parameters: {0: Beijing, 1: Shanghai}, a properties file's shard-parameters.0=..., and the
		// bracket form all mean the same; before, a map was dropped in silence (the job ran with no parameters)
		for (String[] names : List.of(new String[] { ".shard-parameters.0", ".shard-parameters.1" },
				new String[] { ".shard-parameters[0]", ".shard-parameters[1]" })) {
			MockEnvironment environment = new MockEnvironment().withProperty(KEY + ".shards", "2")
				.withProperty(KEY + names[0], "Beijing")
				.withProperty(KEY + names[1], "Shanghai");
			ShardSettings settings = new ShardSettings(environment);
			settings.refresh();
			assertThat(settings.refusal("report")).isNull();
			assertThat(List.of(settings.of("report").parameter(0), settings.of("report").parameter(1)))
				.containsExactly("Beijing", "Shanghai");
		}
	}

	@Test
	void aMapOfParametersIsRefusedByTheSameRulesAsTheTextForm() {
		MockEnvironment environment = new MockEnvironment().withProperty(KEY + ".shards", "2")
			.withProperty(KEY + ".shard-parameters.0", "a")
			.withProperty(KEY + ".shard-parameters.5", "Secret");
		ShardSettings settings = new ShardSettings(environment);
		settings.refresh();
		assertThat(settings.of("report")).isNull();
		assertThat(settings.refusal("report")).startsWith(KEY + ".shard-parameters entry").contains("outside")
			.doesNotContain("Secret");
		assertThat(ShardEntryRules.refusals(Map.of(KEY + ".shards", "2", KEY + ".shard-parameters.5", "Secret")))
			.containsOnlyKeys(KEY + ".shard-parameters");
	}

	@Test
	void aRefusedChangeKeepsTheSettingsInForceAndAValidOneReplacesThem() {
		MockEnvironment environment = new MockEnvironment().withProperty(KEY + ".shards", "3")
			.withProperty(KEY + ".shard-parameters", "0=a");
		ShardSettings settings = new ShardSettings(environment);
		settings.refresh();
		assertThat(settings.of("report").total()).isEqualTo(3);
		environment.setProperty(KEY + ".shards", "0");
		settings.refresh();
		assertThat(settings.of("report").total()).isEqualTo(3);
		assertThat(settings.refusal("report")).startsWith(KEY + ".shards must be");
		environment.setProperty(KEY + ".shards", "5");
		settings.refresh();
		assertThat(settings.of("REPORT").total()).isEqualTo(5);
		assertThat(settings.refusal("report")).isNull();
	}

	@Test
	void assignmentIsStickyEvenAndMovesOneLiveShardAtATime() {
		List<String> first = ShardAssignment.assign(List.of(), 4, List.of("a"));
		assertThat(first).containsExactly("a", "a", "a", "a");
		List<String> joined = ShardAssignment.assign(first, 4, List.of("a", "b", "c"));
		assertThat(joined).containsExactly("a", "a", "a", "b");
		List<String> settled = ShardAssignment.assign(ShardAssignment.assign(joined, 4, List.of("a", "b", "c")), 4,
				List.of("a", "b", "c"));
		assertThat(settled).containsExactly("a", "a", "c", "b");
		assertThat(ShardAssignment.assign(settled, 4, List.of("a", "b", "c"))).isEqualTo(settled);
		// a lost owner's shards all move at once, to the least loaded
		assertThat(ShardAssignment.assign(settled, 4, List.of("b", "c"))).containsExactly("b", "c", "c", "b");
		// fewer shards: the remaining ones stay put, then one moves towards an even spread
		assertThat(ShardAssignment.assign(settled, 2, List.of("a", "b", "c"))).containsExactly("a", "b");
	}

}
