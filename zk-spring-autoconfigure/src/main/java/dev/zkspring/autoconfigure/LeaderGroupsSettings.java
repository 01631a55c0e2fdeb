package dev.zkspring.autoconfigure;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.StringUtils;

import dev.zkspring.client.SessionLease;
import dev.zkspring.client.ZkStartupException;
import dev.zkspring.jobs.ZkLeaderGroups;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.leader.ZkLeaderProperties;

/**
 * Checks {@code zk.leader.groups} and {@code zk.leader.max-groups} and builds the groups' elections, each
 * at {@code {zk.leader.root}/{group of the application}.groups/{name}}.
 */
final class LeaderGroupsSettings {

	private LeaderGroupsSettings() {
	}

	/** The {@code zk.leader} settings as bound from the environment, before any bean exists. */
	static ZkLeaderProperties bind(Environment environment) {
		return Binder.get(environment).bindOrCreate(ZkLeaderProperties.PREFIX, ZkLeaderProperties.class);
	}

	/** The application's elections followed by those of its leader groups, for the endpoint and the fleet view. */
	static List<ZkLeaderElection> withGroups(ObjectProvider<ZkLeaderElection> elections, ObjectProvider<ZkLeaderGroups> groups) {
		List<ZkLeaderElection> all = new ArrayList<>(elections.orderedStream().toList());
		groups.orderedStream().forEach((grouped) -> all.addAll(grouped.elections().values()));
		return all;
	}

	/** Matches when at least one group is configured under {@code zk.leader.groups}. */
	static final class Configured implements Condition {

		@Override
		public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
			return !bind(context.getEnvironment()).getGroups().isEmpty();
		}

	}

	/** The groups' job names, blanks dropped, after checking every name; fails naming the key. */
	static Map<String, List<String>> check(ZkLeaderProperties leader) {
		Integer max = leader.getMaxGroups();
		if (max != null && max < 1) {
			throw new ZkStartupException("zk.leader.max-groups is " + max + ": an instance must be able to lead at least one group.",
					"Set zk.leader.max-groups to 1 or more, or remove it (groups then stay with the instance that won them).");
		}
		if (leader.getRebalanceHold().isNegative()) {
			throw new ZkStartupException("zk.leader.rebalance-hold is negative.", "Set zk.leader.rebalance-hold to a duration such as 30s.");
		}
		Map<String, List<String>> groups = new LinkedHashMap<>();
		Map<String, String> groupOfJob = new LinkedHashMap<>();
		leader.getGroups().forEach((group, jobs) -> {
			if (!StringUtils.hasText(group) || group.contains("/") || group.contains(".") || group.contains("[")) {
				throw new ZkStartupException("zk.leader.groups." + group + " does not name a group by a single node name.",
						"Name each group with letters, digits, '-' or '_', such as zk.leader.groups.billing=invoiceJob.");
			}
			List<String> names = new ArrayList<>();
			for (String job : (jobs != null) ? jobs : List.<String>of()) {
				if (!StringUtils.hasText(job)) {
					continue;
				}
				String name = job.trim();
				String other = groupOfJob.putIfAbsent(name, group);
				if (other != null && !other.equals(group)) {
					throw new ZkStartupException("Quartz job '" + name + "' is named in zk.leader.groups." + other + " and in zk.leader.groups."
							+ group + ": a job runs on the leader of one group.", "Remove '" + name + "' from one of the two.");
				}
				names.add(name);
			}
			groups.put(group, List.copyOf(names));
		});
		return groups;
	}

	static @Nullable ZkLeaderGroups create(CuratorFramework client, @Nullable SessionLease lease, ZkLeaderProperties leader,
			String latchPath, Supplier<String> participantId) {
		Map<String, List<String>> groups = check(leader);
		if (groups.isEmpty()) {
			return null;
		}
		Map<String, ZkLeaderElection> elections = new LinkedHashMap<>();
		groups.keySet().forEach((group) -> {
			String path = ZKPaths.makePath(latchPath + ".groups", group);
			elections.put(group, (lease != null)
					? new ZkLeaderElection(client, lease, path, participantId, leader.getDrainTimeout(), leader.getTakeoverDelay())
					: new ZkLeaderElection(client, path, participantId, leader.getDrainTimeout(), leader.getTakeoverDelay()));
		});
		Integer max = leader.getMaxGroups();
		return new ZkLeaderGroups(elections, groups, (max != null) ? max : Integer.MAX_VALUE, leader.getRebalanceHold());
	}

}
