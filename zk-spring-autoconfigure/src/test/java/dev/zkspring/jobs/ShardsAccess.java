package dev.zkspring.jobs;

import dev.zkspring.leader.shard.ShardOperations;

/** Tests of the shard package reach the operations behind {@link ZkShards}. */
public final class ShardsAccess {

	private ShardsAccess() {
	}

	public static ShardOperations of(ZkShards shards) {
		return shards.operations();
	}

}
