package dev.zkspring.reliability.workload;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.data.Stat;
import org.quartz.JobKey;

import org.springframework.stereotype.Component;

import dev.zkspring.leader.ZkLeaderElection;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads, for the journal, the fence a shard's run went through: its fire time's dispatch node
 * ({@code {latch}.shards/jobs/{job}/fires/{fire time}-{trigger}}, see docs/sharded-jobs.md) with the
 * dispatching leader's epoch, the node's version and the owner it names for the shard. Best effort: the
 * layout is the library's, and a read that fails journals {@code ?} (the checker then skips the fence check).
 */
@Component
public class ShardFence {

	private static final JsonMapper mapper = JsonMapper.builder().build();

	private final CuratorFramework client;

	private final ZkLeaderElection election;

	ShardFence(CuratorFramework client, ZkLeaderElection election) {
		this.client = client;
		this.election = election;
	}

	/**
	 * {@code epoch version owner recovering self}: the dispatch's epoch, the node's version, the owner it names
	 * for the shard and whether it flags the shard as re-run after a lost owner, and this instance's
	 * participant id; {@code ? ? ? ? self} when the node could not be read.
	 */
	String describe(JobKey job, long fireTime, int index) {
		String self = this.election.participantId().replace(' ', '_');
		try {
			String fires = this.election.latchPath() + ".shards/jobs/"
					+ URLEncoder.encode(job.toString(), StandardCharsets.UTF_8) + "/fires";
			String prefix = String.format("%013d", fireTime) + "-";
			for (String name : this.client.getChildren().forPath(fires)) {
				if (name.startsWith(prefix)) {
					Stat stat = new Stat();
					JsonNode node = mapper.readTree(this.client.getData().storingStatIn(stat).forPath(fires + "/" + name));
					return node.path("epoch").asLong() + " " + stat.getVersion() + " "
							+ node.path("owners").path(index).asString().replace(' ', '_') + " "
							+ node.path("recovering").path(index).asBoolean() + " " + self;
				}
			}
		}
		catch (Exception ex) {
			// best effort (see above)
		}
		return "? ? ? ? " + self;
	}

}
