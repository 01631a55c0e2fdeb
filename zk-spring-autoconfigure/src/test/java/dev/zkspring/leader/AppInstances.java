package dev.zkspring.leader;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;

import dev.zkspring.test.ZooKeeperExtension;

/**
 * Simulated instances of one application: each a separate Spring application context with its own
 * {@link CuratorFramework} and session, in a group of its own per test; all closed after each test.
 */
public final class AppInstances implements BeforeEachCallback, AfterEachCallback {

	private static final AtomicInteger groups = new AtomicInteger();

	private final ZooKeeperExtension zk;

	private final Class<?> configuration;

	private final String[] defaults;

	private final List<Instance> started = new CopyOnWriteArrayList<>();

	private final List<Object> beans = new ArrayList<>();

	private Runnable reset = () -> {
	};

	private CuratorFramework writer;

	private String group = "";

	public AppInstances(ZooKeeperExtension zk, Class<?> configuration, String... defaults) {
		this.zk = zk;
		this.configuration = configuration;
		this.defaults = defaults;
	}

	/** Every instance gets these objects as beans (an {@link ExecutionRecorder} the class asserts on, say). */
	public AppInstances withBeans(Object... beans) {
		this.beans.addAll(Arrays.asList(beans));
		return this;
	}

	/** Before each test, put the application's static records back to empty (its runs, its hooks). */
	public AppInstances resetting(Runnable reset) {
		this.reset = reset;
		return this;
	}

	/** A client of the test's own that writes znodes as an operator would (closed after the test). */
	public CuratorFramework writer() throws InterruptedException {
		if (this.writer == null) {
			this.writer = this.zk.newClient();
		}
		return this.writer;
	}

	@Override
	public void beforeEach(ExtensionContext context) {
		this.reset.run();
		this.writer = null;
		this.group = "leader-tests-" + groups.incrementAndGet();
	}

	@Override
	public void afterEach(ExtensionContext context) {
		for (Instance instance : this.started) {
			instance.context().close();
		}
		this.started.clear();
	}

	public String group() {
		return this.group;
	}

	/** Start one instance with the given participant id and extra properties. */
	public Instance start(String id, String... properties) {
		List<String> all = new ArrayList<>(List.of(this.zk.connectProperty(), "spring.application.name=" + this.group,
				"zk.leader.id=" + id, "spring.quartz.scheduler-name=" + id,
				"spring.quartz.properties.org.quartz.threadPool.threadCount=2"));
		all.addAll(Arrays.asList(this.defaults));
		all.addAll(Arrays.asList(properties));
		List<Object> events = new CopyOnWriteArrayList<>();
		ApplicationListener<ApplicationEvent> revocations = (event) -> {
			if (event instanceof LeadershipRevokedEvent revoked) {
				events.add(new Revocation(System.nanoTime(), revoked.getReason()));
			}
		};
		ConfigurableApplicationContext context = new SpringApplicationBuilder(this.configuration)
			.web(WebApplicationType.NONE)
			.bannerMode(Banner.Mode.OFF)
			.logStartupInfo(false)
			.listeners(revocations)
			.initializers((app) -> this.beans
				.forEach((bean) -> app.getBeanFactory().registerSingleton(bean.getClass().getName(), bean)))
			.properties(all.toArray(String[]::new))
			.run();
		Instance instance = new Instance(id, context, events);
		this.started.add(instance);
		return instance;
	}

	public List<Instance> startAll(String... ids) {
		return Arrays.stream(ids).map(this::start).toList();
	}

	/** One running application instance. */
	public record Instance(String id, ConfigurableApplicationContext context, List<Object> revocations) {

		public ZkLeaderElection election() {
			return this.context.getBean(ZkLeaderElection.class);
		}

		public CuratorFramework client() {
			return this.context.getBean(CuratorFramework.class);
		}

		public boolean isLeader() {
			return this.context.isActive() && election().isLeader();
		}

		/** When the first revocation after the given time was published, or -1. */
		public long revokedAfter(long nanos) {
			return this.revocations.stream()
				.map(Revocation.class::cast)
				.filter((revocation) -> revocation.nanos() > nanos)
				.mapToLong(Revocation::nanos)
				.min()
				.orElse(-1);
		}

	}

	public record Revocation(long nanos, LeadershipReason reason) {
	}

}
