package dev.zkspring.refresh;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.ConfigurableEnvironment;

import dev.zkspring.config.ZkConfigApplier;
import dev.zkspring.config.ZkConfigCandidate;
import dev.zkspring.config.ZkConfigChangeRejectedException;

/**
 * Applies a configuration change to every {@link RefreshScope} bean in two phases. Phase 1 resolves,
 * converts and binds every affected target against the candidate sources and touches nothing; if
 * anything fails the change is refused as a whole. Phase 2 swaps the property source and performs
 * every prepared write under one lock, then publishes a {@link ZkRefreshedEvent}. Public so the
 * auto-configuration can register it as the config center's {@link ZkConfigApplier}.
 */
public final class ZkRefresher implements ZkConfigApplier {

	private static final Log logger = LogFactory.getLog(ZkRefresher.class);

	private final RefreshTargetRecorder recorder;

	private final PropertiesRebinder rebinder;

	private volatile ZkRefreshInstrumentation instrumentation = ZkRefreshInstrumentation.NONE;

	/**
	 * Create the refresher.
	 * @param recorder the recorder of the application's refresh targets
	 */
	public ZkRefresher(RefreshTargetRecorder recorder) {
		this.recorder = recorder;
		this.rebinder = new PropertiesRebinder(recorder.context());
	}

	/** Instrument every refresh from now on (Micrometer Observations when the application has a registry). */
	public void setInstrumentation(ZkRefreshInstrumentation instrumentation) {
		this.instrumentation = instrumentation;
	}

	@Override
	public void apply(ZkConfigCandidate candidate) {
		this.instrumentation.apply(candidate, () -> refresh(candidate));
	}

	private void refresh(ZkConfigCandidate candidate) {
		long started = System.nanoTime();
		ConfigurableApplicationContext context = this.recorder.context();
		ConfigurableEnvironment environment = ExpressionResolver.environment(candidate.getPropertySources(),
				context.getEnvironment());
		Set<String> changed = new LinkedHashSet<>();
		candidate.getChanges().forEach((change) -> changed.add(change.key()));
		long[] lastSequence = new long[1];
		List<RecordedBean> recorded = this.recorder.locked(() -> {
			lastSequence[0] = this.recorder.lastSequence();
			return this.recorder.recordedAfter(Long.MIN_VALUE);
		});
		TargetPlanner planner = new TargetPlanner(ExpressionResolver.of(context.getBeanFactory(), environment),
				this.rebinder, changed, context.getBeanFactory().getTypeConverter(), context.getEnvironment());
		List<PendingWrite> writes = new ArrayList<>();
		List<Object> alive = new ArrayList<>();
		for (RecordedBean bean : recorded) {
			Object instance = bean.get();
			if (instance != null) {
				alive.add(instance);
				planner.plan(bean, instance, writes);
			}
		}
		List<String> written = new ArrayList<>();
		this.recorder.commit(() -> {
			candidate.swap();
			for (PendingWrite write : writes) {
				perform(write, written);
			}
			catchUp(lastSequence[0], context, changed, written);
		});
		Duration duration = Duration.ofNanos(System.nanoTime() - started);
		logger.info("Refreshed " + written.size() + " target(s) of " + alive.size() + " @RefreshScope bean(s) for "
				+ changed.size() + " changed key(s) in " + duration.toMillis() + " ms");
		try {
			context.publishEvent(new ZkRefreshedEvent(context, candidate.getChanges(), written,
					candidate.getZnodeVersions(), duration));
		}
		catch (RuntimeException ex) {
			// the change is in force: an application listener's failure must not read as a failed refresh
			logger.warn("A listener of ZkRefreshedEvent failed (" + ex.getClass().getName() + "); the change is applied "
					+ "and the listeners after it missed the event", ex);
		}
	}

	private static void perform(PendingWrite write, List<String> written) {
		try {
			write.action().run();
			written.add(write.target());
		}
		catch (Throwable ex) {
			// phase 2 cannot be undone: only a setter of the application's own can throw here
			logger.warn("Writing " + write.target() + " failed (" + ex.getClass().getName()
					+ "); the other targets of the change were written");
		}
	}

	/** Beans recorded while phase 1 ran were injected from the old sources: bring them up to date. */
	private void catchUp(long lastSequence, ConfigurableApplicationContext context, Set<String> changed,
			List<String> written) {
		List<RecordedBean> late = this.recorder.recordedAfter(lastSequence);
		if (late.isEmpty()) {
			return;
		}
		// created from the old sources and brought to the new ones: what differs from them is written
		TargetPlanner planner = new TargetPlanner(this.recorder.liveResolver(), this.rebinder, changed,
				context.getBeanFactory().getTypeConverter(), null);
		for (RecordedBean bean : late) {
			Object instance = bean.get();
			if (instance == null) {
				continue;
			}
			List<PendingWrite> writes = new ArrayList<>();
			try {
				planner.plan(bean, instance, writes);
			}
			catch (ZkConfigChangeRejectedException ex) {
				logger.warn("Could not bring bean '" + bean.name() + "', created during a refresh, up to date: "
						+ ex.getReason());
			}
			writes.forEach((write) -> perform(write, written));
		}
	}

}
