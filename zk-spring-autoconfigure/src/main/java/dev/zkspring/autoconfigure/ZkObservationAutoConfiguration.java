package dev.zkspring.autoconfigure;

import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import org.apache.curator.framework.CuratorFramework;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.impl.matchers.EverythingMatcher;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.zkspring.jobs.LeaderGatedSchedulerCustomizer;
import dev.zkspring.jobs.ZkJobs;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.lock.ZkLockTemplate;
import dev.zkspring.observation.ZkJobRunConvention;
import dev.zkspring.observation.ZkJobRequestTracing;
import dev.zkspring.observation.ZkJobRunObservations;
import dev.zkspring.observation.ZkLeaderOnlyConvention;
import dev.zkspring.observation.ZkLeadershipTermConvention;
import dev.zkspring.observation.ZkLockAcquisitionConvention;
import dev.zkspring.observation.ZkLockHoldConvention;
import dev.zkspring.observation.ZkObservations;
import dev.zkspring.observation.ZkPublishConvention;
import dev.zkspring.observation.ZkRefreshConvention;
import dev.zkspring.publish.ConfigCanaries;
import dev.zkspring.publish.ConfigPublisher;
import dev.zkspring.refresh.ZkRefresher;

/**
 * Observations of locks, leadership, {@code @LeaderOnly} calls, job runs, refreshes and the application's
 * own publishing (its {@code ConfigPublisher} and {@code ConfigCanaries} beans) through the
 * application's {@link ObservationRegistry} (Boot's, with actuator), when Micrometer's Observation API is
 * on the class path and a registry exists; nothing otherwise. Conventions are the application's
 * {@code Zk...Convention} beans when it declares them.
 */
@AutoConfiguration(after = { ZkAutoConfiguration.class, ZkLeaderAutoConfiguration.class,
		ZkLockAutoConfiguration.class, ZkRefreshAutoConfiguration.class, ZkQuartzAutoConfiguration.class },
		afterName = "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration")
@ConditionalOnClass({ CuratorFramework.class, ObservationRegistry.class })
@ConditionalOnBooleanProperty(name = "zk.enabled", matchIfMissing = true)
@ConditionalOnBean({ CuratorFramework.class, ObservationRegistry.class })
public final class ZkObservationAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ZkObservations zkObservations(ObservationRegistry registry, ObjectProvider<ZkLockTemplate> templates,
			ObjectProvider<ZkLeaderElection> elections, ObjectProvider<ZkRefresher> refreshers,
			ObjectProvider<ZkLockAcquisitionConvention> lockAcquisition, ObjectProvider<ZkLockHoldConvention> lockHold,
			ObjectProvider<ZkLeaderOnlyConvention> leaderOnly, ObjectProvider<ZkLeadershipTermConvention> term,
			ObjectProvider<ZkRefreshConvention> refresh, ObjectProvider<ZkPublishConvention> publish,
			ObjectProvider<ConfigPublisher> publishers, ObjectProvider<ConfigCanaries> canaries) {
		ZkObservations observations = new ZkObservations(registry,
				new ZkObservations.Conventions(lockAcquisition.getIfUnique(), lockHold.getIfUnique(),
						leaderOnly.getIfUnique(), term.getIfUnique(), refresh.getIfUnique(), publish.getIfUnique()));
		templates.orderedStream().forEach(observations::instrument);
		elections.orderedStream().forEach(observations::instrument);
		refreshers.orderedStream().forEach(observations::instrument);
		publishers.orderedStream().forEach(observations::instrument);
		canaries.orderedStream().forEach(observations::instrument);
		return observations;
	}

	/** Job runs of the leader-gated Quartz scheduler, when Quartz and the gate are there. */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ Scheduler.class, LeaderGatedSchedulerCustomizer.class })
	@ConditionalOnBean(LeaderGatedSchedulerCustomizer.class)
	static final class JobRuns {

		@Bean
		SmartInitializingSingleton zkJobRunObservations(ObservationRegistry registry,
				ObjectProvider<ZkJobRunConvention> convention, ObjectProvider<Scheduler> schedulers) {
			ZkJobRunObservations listener = new ZkJobRunObservations(registry, convention.getIfUnique());
			return () -> schedulers.orderedStream().forEach((scheduler) -> {
				try {
					if (scheduler.getListenerManager().getJobListener(ZkJobRunObservations.NAME) == null) {
						scheduler.getListenerManager().addJobListener(listener, EverythingMatcher.allJobs());
					}
				}
				catch (SchedulerException ex) {
					throw new IllegalStateException("Could not observe the job runs of scheduler " + scheduler, ex);
				}
			});
		}

	}

	/**
	 * Run, pause and resume requests carry the asker's trace context, when Micrometer Tracing is there with a
	 * tracer and a propagator (looked up once every singleton exists, whichever auto-configuration made them).
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ Tracer.class, Scheduler.class })
	static final class JobRequestTracing {

		@Bean
		SmartInitializingSingleton zkJobRequestTracing(ObjectProvider<Tracer> tracer,
				ObjectProvider<Propagator> propagator, ObjectProvider<ZkJobs> jobs) {
			return () -> {
				Tracer current = tracer.getIfUnique();
				Propagator propagation = propagator.getIfUnique();
				if (current != null && propagation != null) {
					ZkJobRequestTracing tracing = new ZkJobRequestTracing(current, propagation);
					jobs.orderedStream().forEach(tracing::instrument);
				}
			};
		}

	}

}
