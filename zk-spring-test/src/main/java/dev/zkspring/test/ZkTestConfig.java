package dev.zkspring.test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.IntPredicate;
import java.util.function.Predicate;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;

import dev.zkspring.config.ZkConfigInitializer;
import dev.zkspring.config.ZkConfigRejectedEvent;
import dev.zkspring.config.ZkConfigStatus;
import dev.zkspring.config.ZnodePropertySource;
import dev.zkspring.refresh.ConsistentReads;

/**
 * Changes the test application's configuration in ZooKeeper and waits for the outcome, so a test of a
 * {@code @RefreshScope} bean reads as three lines: put, check the outcome, check the bean. A bean in
 * every Spring test context of an application that uses zk-spring.
 * <p>
 * The outcome is the application's own: applied once its config center holds the written version in
 * force (its {@link ZnodePropertySource}s), refused when it published a {@link ZkConfigRejectedEvent}
 * for it. It writes through the application's {@code curatorFramework} client, so inside its namespace.
 */
public final class ZkTestConfig {

	static final String BEAN_NAME = "zkTestConfig";

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	/** The in-force "version" of a context the application holds nothing of. */
	private static final int NONE = -1;

	private final ConfigurableApplicationContext context;

	private final Rejections rejections = new Rejections();

	ZkTestConfig(ConfigurableApplicationContext context) {
		this.context = context;
	}

	/**
	 * Write a context's document and wait until this application has applied or refused it.
	 * @param context a context this application reads, such as {@code application} or {@code orders}
	 * @param json the document, one JSON object
	 * @return applied, or refused with the application's reason
	 * @throws IllegalArgumentException when the application does not read that context
	 * @throws IllegalStateException when neither happens within 10 seconds ({@code zk.config.watch=false})
	 */
	public synchronized Outcome put(String context, String json) throws Exception {
		String znode = readZnode(context);
		byte[] data = json.getBytes(StandardCharsets.UTF_8);
		CuratorFramework client = client();
		this.rejections.queue.clear();
		Stat stat = new Stat();
		try {
			client.create().creatingParentsIfNeeded().storingStatIn(stat).forPath(znode, data);
		}
		catch (KeeperException.NodeExistsException ex) {
			stat = client.setData().forPath(znode, data);
		}
		int version = stat.getVersion();
		return await(znode, "version " + version, (inForce) -> inForce >= version,
				(event) -> event.getVersion() == version);
	}

	/**
	 * Delete a context's document and wait until this application has applied or refused that.
	 * @param context a context this application reads
	 * @return applied, or refused with the application's reason
	 */
	public synchronized Outcome delete(String context) throws Exception {
		String znode = readZnode(context);
		this.rejections.queue.clear();
		try {
			client().delete().forPath(znode);
		}
		catch (KeeperException.NoNodeException ex) {
			// already absent: the application may still hold it, if it was deleted behind its back
		}
		return await(znode, "its deletion", (inForce) -> inForce == NONE, (event) -> true);
	}

	/**
	 * The document now in ZooKeeper for a context.
	 * @param context a context name
	 * @return the document, or empty when the context has none
	 */
	public Optional<String> get(String context) throws Exception {
		try {
			byte[] data = client().getData().forPath(znode(context));
			return Optional.of(new String(data, StandardCharsets.UTF_8));
		}
		catch (KeeperException.NoNodeException ex) {
			return Optional.empty();
		}
	}

	ApplicationListener<ZkConfigRejectedEvent> rejections() {
		return this.rejections;
	}

	private Outcome await(String znode, String what, IntPredicate applied, Predicate<ZkConfigRejectedEvent> refused)
			throws InterruptedException {
		long deadline = System.nanoTime() + TIMEOUT.toNanos();
		while (true) {
			if (applied.test(inForceVersion(znode))) {
				return Outcome.APPLIED;
			}
			ZkConfigRejectedEvent event = this.rejections.queue.poll(10, TimeUnit.MILLISECONDS);
			for (; event != null; event = this.rejections.queue.poll()) {
				if (event.getZnode().equals(znode) && refused.test(event)) {
					return new Outcome(false, event.getReason());
				}
			}
			if (System.nanoTime() - deadline > 0) {
				throw new IllegalStateException("The application neither applied nor refused " + what + " of znode "
						+ znode + " within " + TIMEOUT + "; is zk.config.watch false?");
			}
		}
	}

	/**
	 * The version in force, read as {@code @RefreshScope} beans see it: a refresh swaps the property source
	 * and rebinds the beans under {@link ConsistentReads}' write lock, so a version read through it is one
	 * whose beans are rebound already (read straight from the Environment, it could be seen between the swap
	 * and the rebinding).
	 */
	private int inForceVersion(String znode) {
		ConsistentReads reads = this.context.getBeanProvider(ConsistentReads.class).getIfAvailable();
		return (reads != null) ? reads.read(() -> environmentVersion(znode)) : environmentVersion(znode);
	}

	private int environmentVersion(String znode) {
		return ZnodePropertySource.inForce(this.context.getEnvironment())
			.stream()
			.filter((source) -> source.getZnode().equals(znode))
			.mapToInt(ZnodePropertySource::getVersion)
			.findFirst()
			.orElse(NONE);
	}

	/** The context's znode, checked to be one this application reads. */
	private String readZnode(String context) {
		String znode = znode(context);
		List<String> read = this.context.getBeanProvider(ZkConfigStatus.class)
			.getIfAvailable(() -> {
				throw new IllegalStateException("This application does not load configuration from ZooKeeper "
						+ "(zk.enabled or zk.config.enabled is false): there is nothing to put.");
			})
			.getContextZnodes();
		if (!read.contains(znode)) {
			throw new IllegalArgumentException("Context '" + context + "' (znode " + znode + ") is not one this "
					+ "application reads; it reads " + read + " (spring.application.name, zk.config.name, profiles).");
		}
		return znode;
	}

	private String znode(String context) {
		return ZkConfigInitializer.contextZnode(Binder.get(this.context.getEnvironment()), context);
	}

	private CuratorFramework client() {
		return this.context.getBean("curatorFramework", CuratorFramework.class);
	}

	/**
	 * What the application did with a write.
	 * @param applied whether it is in force
	 * @param reason why it was refused (keys and targets, never values), or {@code null} when applied
	 */
	public record Outcome(boolean applied, @Nullable String reason) {

		/** The write is in force. */
		public static final Outcome APPLIED = new Outcome(true, null);

	}

	/** The application's refusals, as they are published. */
	private static final class Rejections implements ApplicationListener<ZkConfigRejectedEvent> {

		private final BlockingQueue<ZkConfigRejectedEvent> queue = new LinkedBlockingQueue<>();

		@Override
		public void onApplicationEvent(ZkConfigRejectedEvent event) {
			this.queue.add(event);
		}

	}

}
