package dev.zkspring.autoconfigure;

import java.util.function.Supplier;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.common.PathUtils;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;

import dev.zkspring.client.InstanceId;
import dev.zkspring.client.SessionLease;
import dev.zkspring.client.ZkStartupException;
import dev.zkspring.jobs.ZkLeaderGroups;
import dev.zkspring.leader.LeaderOnlyBeanPostProcessor;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.leader.ZkLeaderProperties;

/**
 * Leader election for the application's group at {@code {zk.leader.root}/{zk.leader.group}}, and
 * {@link dev.zkspring.leader.LeaderOnly} methods gated by it; only where something needs a leader
 * ({@link LeaderNeededCondition}), so other applications need no {@code spring.application.name}.
 */
@AutoConfiguration(after = ZkAutoConfiguration.class)
@ConditionalOnClass({ CuratorFramework.class, LeaderLatch.class })
@ConditionalOnBooleanProperty(name = "zk.enabled", matchIfMissing = true)
@ConditionalOnBean(CuratorFramework.class)
@EnableConfigurationProperties(ZkLeaderProperties.class)
public final class ZkLeaderAutoConfiguration {

	@Configuration(proxyBeanMethods = false)
	@Conditional(LeaderNeededCondition.class)
	static class Election {

		/** Fails at once, before any bean is created, when the election would have no group. */
		@Bean
		static BeanFactoryPostProcessor zkLeaderGroupCheck(Environment environment) {
			return (beanFactory) -> {
				if (beanFactory.containsBeanDefinition("zkLeaderElection")) {
					ZkLeaderProperties leader = LeaderGroupsSettings.bind(environment);
					latchPath(leader, environment);
					LeaderGroupsSettings.check(leader);
				}
			};
		}

		@Bean
		@ConditionalOnMissingBean
		ZkLeaderElection zkLeaderElection(CuratorFramework client, ObjectProvider<SessionLease> lease,
				ZkLeaderProperties leader, Environment environment, ObjectProvider<InstanceId> loadedAs) {
			// the id the configuration was loaded as, so a canary's set and the fleet name this instance alike
			Supplier<String> participantId = participantId(leader, environment, loadedAs);
			SessionLease shared = lease.getIfUnique();
			String path = latchPath(leader, environment);
			return (shared != null)
					? new ZkLeaderElection(client, shared, path, participantId, leader.getDrainTimeout(),
							leader.getTakeoverDelay())
					: new ZkLeaderElection(client, path, participantId, leader.getDrainTimeout(), leader.getTakeoverDelay());
		}

		@Bean
		@ConditionalOnMissingBean
		@Conditional(LeaderGroupsSettings.Configured.class)
		ZkLeaderGroups zkLeaderGroups(CuratorFramework client, ObjectProvider<SessionLease> lease, ZkLeaderProperties leader,
				Environment environment, ObjectProvider<InstanceId> loadedAs) {
			return LeaderGroupsSettings.create(client, lease.getIfUnique(), leader, latchPath(leader, environment),
					participantId(leader, environment, loadedAs));
		}

		@Bean
		@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
		static LeaderOnlyBeanPostProcessor zkLeaderOnlyBeanPostProcessor(ObjectProvider<ZkLeaderElection> election,
				ObjectProvider<ZkLeaderGroups> groups, Environment environment) {
			return new LeaderOnlyBeanPostProcessor(election::getObject,
					LeaderGroupsSettings.bind(environment).getGroups().keySet(),
					(group) -> groups.getObject().elections().get(group));
		}

	}

	/**
	 * Without an election (nothing seemed to need one), a {@code @LeaderOnly} method the condition could not
	 * see (a bean whose type is known only once created) fails the startup instead of running everywhere.
	 */
	@Configuration(proxyBeanMethods = false)
	@Conditional(LeaderNeededCondition.NotNeeded.class)
	static class NoElection {

		@Bean
		@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
		static BeanPostProcessor zkLeaderOnlyWithoutElection() {
			return new BeanPostProcessor() {
				@Override
				public Object postProcessAfterInitialization(Object bean, String beanName) {
					if (LeaderNeededCondition.hasLeaderOnlyMethod(AopUtils.getTargetClass(bean))) {
						throw new ZkStartupException("Bean '" + beanName + "' has @LeaderOnly methods, but no leader "
								+ "election runs: its type was not known when zk-spring decided whether anything needs a leader.",
								"Set " + LeaderNeededCondition.ENABLED + "=true, and spring.application.name (or zk.leader.group).");
					}
					return bean;
				}
			};
		}

	}

	static Supplier<String> participantId(ZkLeaderProperties leader, Environment environment,
			ObjectProvider<InstanceId> loadedAs) {
		return () -> loadedAs.getIfAvailable(() -> InstanceId.of(leader.getId(), environment)).value();
	}

	static String latchPath(ZkLeaderProperties leader, Environment environment) {
		String root = leader.getRoot();
		try {
			PathUtils.validatePath(root);
		}
		catch (IllegalArgumentException ex) {
			throw new ZkStartupException("zk.leader.root is not a valid ZooKeeper path: " + ex.getMessage(),
					"Set zk.leader.root to an absolute path such as /leader.", ex);
		}
		String group = StringUtils.hasText(leader.getGroup()) ? leader.getGroup()
				: environment.getProperty("spring.application.name");
		if (!StringUtils.hasText(group)) {
			throw new ZkStartupException("zk-spring elects a leader here (for leader-gated Quartz jobs, @LeaderOnly "
					+ "methods or zk.leader.enabled=true), and the election has no group: neither zk.leader.group nor "
					+ "spring.application.name is set.",
					"Set spring.application.name (the instances of one application share it) or zk.leader.group. "
							+ "To run without leader election, set zk.leader.enabled=false.");
		}
		if (group.contains("/") || group.equals(".") || group.equals("..")) {
			throw new ZkStartupException("zk.leader.group must be a single node name, without '/'.",
					"Set zk.leader.group (or spring.application.name) to a name such as order-service.");
		}
		String path = ZKPaths.makePath(root, group);
		try {
			PathUtils.validatePath(path);
		}
		catch (IllegalArgumentException ex) {
			throw new ZkStartupException("zk.leader.group does not make a valid ZooKeeper path: " + ex.getMessage(),
					"Set zk.leader.group (or spring.application.name) to a name such as order-service.", ex);
		}
		return path;
	}

}
