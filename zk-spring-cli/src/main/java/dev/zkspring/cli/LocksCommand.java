package dev.zkspring.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

import dev.zkspring.fleet.FleetInstances;
import dev.zkspring.lock.LockQueue;

/**
 * {@code zk-spring locks}: per key, who holds it and who waits, from the lock znodes; each node's session is
 * matched to the instance whose fleet node is on the same session.
 */
@Command(name = "locks", mixinStandardHelpOptions = true,
		description = { "Per lock key: the holders (instance, mode, since, fencing token when the holder asked for one) "
				+ "and the instances waiting, in line order. One entry per JVM: threads waiting inside a holder's JVM "
				+ "are not in ZooKeeper. An instance without a fleet node shows as its session id." },
		footerHeading = "%nExit status:%n",
		footer = { ReadExits.HELP, "%nExample:%n  ZK_CONNECT=zk1:2181 zk-spring locks --key order-42" })
final class LocksCommand implements Callable<Integer> {

	@ParentCommand
	ZkSpringCli cli;

	@Spec
	CommandSpec spec;

	@Option(names = "--key", paramLabel = "KEY", description = "Only this lock key.")
	@Nullable String key;

	@Option(names = "--lock-root", paramLabel = "ZNODE", defaultValue = "/locks",
			description = "As the applications' zk.lock.root (default: ${DEFAULT-VALUE}).")
	String lockRoot = "/locks";

	@Option(names = "--fleet-root", paramLabel = "ZNODE", defaultValue = "/fleet",
			description = "As the applications' zk.fleet.root (default: ${DEFAULT-VALUE}), to name the instances.")
	String fleetRoot = "/fleet";

	@Mixin
	ReadOutput output = new ReadOutput();

	@Override
	public Integer call() throws Exception {
		List<LockQueue> queues;
		List<FleetInstances.Instance> instances;
		try (CuratorFramework client = this.cli.connection.connect(this.cli.env)) {
			queues = LockQueue.read(client, this.lockRoot, this.key);
			instances = FleetInstances.read(client, this.fleetRoot, null);
		}
		List<Map<String, Object>> locks = locks(queues, instances);
		PrintWriter out = this.spec.commandLine().getOut();
		if (this.output.json()) {
			Map<String, Object> body = new LinkedHashMap<>();
			body.put("locks", locks);
			ReadOutput.printJson(out, body);
			return Exits.DONE;
		}
		String format = "%-24s %-8s %-20s %-9s %-24s %-12s %s";
		out.println(String.format(format, "KEY", "ROLE", "INSTANCE", "MODE", "SINCE", "TOKEN", "APP"));
		for (Map<String, Object> lock : locks) {
			for (String role : List.of("holders", "waiters")) {
				for (Object item : (List<?>) lock.get(role)) {
					Map<?, ?> entry = (Map<?, ?>) item;
					out.println(String.format(format, lock.get("key"), role.equals("holders") ? "holds" : "waits",
							entry.get("instance"), entry.get("mode"), ReadOutput.orDash(entry.get("since")),
							ReadOutput.orDash(entry.get("token")), ReadOutput.orDash(entry.get("application"))));
				}
			}
		}
		if (locks.isEmpty()) {
			this.spec.commandLine().getErr().println((this.key != null) ? "nobody holds or waits for '" + this.key + "'"
					: "no key is held under " + this.lockRoot);
		}
		return Exits.DONE;
	}

	/** One entry per key, with the documented field names. */
	static List<Map<String, Object>> locks(List<LockQueue> queues, List<FleetInstances.Instance> instances) {
		Map<Long, FleetInstances.Instance> bySession = new HashMap<>();
		instances.stream().filter((instance) -> instance.session() != 0)
			.forEach((instance) -> bySession.put(instance.session(), instance));
		List<Map<String, Object>> locks = new ArrayList<>();
		for (LockQueue queue : queues) {
			List<Map<String, Object>> holders = new ArrayList<>();
			List<Map<String, Object>> waiters = new ArrayList<>();
			for (LockQueue.Entry entry : queue.entries()) {
				FleetInstances.Instance instance = bySession.get(entry.session());
				Map<String, Object> described = new LinkedHashMap<>();
				described.put("instance", (instance != null) ? instance.id() : "session 0x" + Long.toHexString(entry.session()));
				described.put("application", (instance != null) ? instance.application() : null);
				described.put("mode", entry.shared() ? "SHARED" : "EXCLUSIVE");
				described.put("node", entry.node());
				if (entry.holds()) {
					Map<?, ?> held = (instance != null) ? held(instance, queue.key()) : null;
					described.put("since", (held != null) ? ReadOutput.instant(held.get("since")) : null);
					described.put("token", (held != null) ? held.get("token") : null);
					holders.add(described);
				}
				else {
					waiters.add(described);
				}
			}
			Map<String, Object> lock = new LinkedHashMap<>();
			lock.put("key", queue.key());
			lock.put("znode", queue.znode());
			lock.put("holders", holders);
			lock.put("waiters", waiters);
			locks.add(lock);
		}
		return locks;
	}

	private static @Nullable Map<?, ?> held(FleetInstances.Instance instance, String key) {
		if (instance.node().get("locks") instanceof List<?> held) {
			for (Object item : held) {
				if (item instanceof Map<?, ?> lock && key.equals(lock.get("key"))) {
					return lock;
				}
			}
		}
		return null;
	}

}
