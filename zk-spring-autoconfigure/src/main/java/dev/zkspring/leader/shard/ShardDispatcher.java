package dev.zkspring.leader.shard;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.quartz.JobKey;

import dev.zkspring.client.OwnedPaths;
import dev.zkspring.leader.shard.ShardSettings.Shards;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes one fire time's dispatch node on the leader that fired it: the shard owners, computed from the
 * owners in force and the live instances ({@link ShardAssignment}), and the settings of that fire time.
 * The node is created once per (fire time, trigger): a second dispatch of the same fire time (a recovery
 * of the dispatching execution) finds it and writes nothing. The owners in force are updated in the same
 * transaction, conditional on their version.
 */
final class ShardDispatcher {

	private static final Log logger = LogFactory.getLog(ShardDispatcher.class);

	/** Fire times kept per job: a lost owner's shards are handed over for these, and the endpoint shows them. */
	static final int KEEP = 50;

	private static final JsonMapper mapper = JsonMapper.builder().build();

	private final CuratorFramework client;

	private final ShardPaths paths;

	/** This instance's participant id, known once the election started. */
	private final Supplier<String> instance;

	ShardDispatcher(CuratorFramework client, ShardPaths paths, Supplier<String> instance) {
		this.client = client;
		this.paths = paths;
		this.instance = instance;
	}

	/** Dispatch one fire time; false when it was dispatched already. @throws Exception when ZooKeeper could not be written */
	boolean dispatch(JobKey job, String trigger, long fireTime, long epoch, Shards shards, boolean requestsRecovery)
			throws Exception {
		String fire = this.paths.fires(job) + "/" + ShardPaths.fireName(fireTime, trigger);
		// the dispatch nodes decide which instance runs what: nobody else may write beside them
		OwnedPaths.ensure(this.client, this.paths.fires(job));
		OwnedPaths.ensure(this.client, this.paths.members());
		for (int attempt = 0; attempt < 10; attempt++) {
			if (this.client.checkExists().forPath(fire) != null) {
				return false;
			}
			List<String> live = live(this.client, this.paths);
			Stat stat = new Stat();
			List<String> previous;
			boolean exists;
			try {
				previous = owners(this.client.getData().storingStatIn(stat).forPath(this.paths.assignment(job)));
				exists = true;
			}
			catch (KeeperException.NoNodeException ex) {
				previous = List.of();
				exists = false;
			}
			List<String> owners = ShardAssignment.assign(previous, shards.total(), live);
			List<String> parameters = new ArrayList<>();
			for (int i = 0; i < shards.total(); i++) {
				parameters.add(shards.parameter(i));
			}
			List<Boolean> none = Collections.nCopies(shards.total(), false);
			FireRecord record = new FireRecord(job.getGroup(), job.getName(), trigger, fireTime, epoch, this.instance.get(),
					parameters, owners, requestsRecovery, none, none);
			byte[] assignment = mapper.writeValueAsBytes(owners);
			List<CuratorOp> operations = new ArrayList<>();
			operations.add(exists
					? this.client.transactionOp().setData().withVersion(stat.getVersion()).forPath(this.paths.assignment(job), assignment)
					: this.client.transactionOp().create().forPath(this.paths.assignment(job), assignment));
			operations.add(this.client.transactionOp().create().forPath(fire, record.toBytes()));
			try {
				this.client.transaction().forOperations(operations);
				if (!owners.equals(previous)) {
					logger.info("Shards of " + job + " from fire time " + fireTime + ": " + owners);
				}
				prune(job);
				return true;
			}
			catch (KeeperException.NodeExistsException | KeeperException.BadVersionException ex) {
				// dispatched meanwhile, or the owners changed: look again
			}
		}
		throw new IllegalStateException("Could not dispatch fire time " + fireTime + " of " + job + ": the owners kept changing");
	}

	/** The live instances, by their member nodes, sorted. */
	static List<String> live(CuratorFramework client, ShardPaths paths) throws Exception {
		try {
			return client.getChildren().forPath(paths.members()).stream().map(ShardPaths::decode).sorted().toList();
		}
		catch (KeeperException.NoNodeException ex) {
			return List.of();
		}
	}

	static List<String> owners(byte[] data) {
		try {
			return mapper.readValue(data, new TypeReference<List<String>>() {
			});
		}
		catch (RuntimeException ex) {
			return List.of();
		}
	}

	private void prune(JobKey job) {
		try {
			List<String> fires = new ArrayList<>(this.client.getChildren().forPath(this.paths.fires(job)));
			Collections.sort(fires);
			for (int i = 0; i < fires.size() - KEEP; i++) {
				this.client.delete().deletingChildrenIfNeeded().forPath(this.paths.fires(job) + "/" + fires.get(i));
			}
		}
		catch (Exception ex) {
			logger.debug("Could not prune the fire times of " + job + ": " + ex);
		}
	}

}
