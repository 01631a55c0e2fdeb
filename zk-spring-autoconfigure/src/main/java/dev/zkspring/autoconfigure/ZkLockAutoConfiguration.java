package dev.zkspring.autoconfigure;

import org.apache.curator.framework.CuratorFramework;

import org.springframework.aop.Advisor;
import org.springframework.aop.config.AopConfigUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;

import dev.zkspring.client.SessionLease;
import dev.zkspring.lock.ZkLockAnnotationSupport;
import dev.zkspring.lock.ZkLockProperties;
import dev.zkspring.lock.ZkLockTemplate;

/**
 * Distributed locks on the application's client: a {@link ZkLockTemplate} and the advisor that locks
 * {@code @ZkLock} methods (proxy based, no AspectJ), ordered outside {@code @Transactional}.
 */
@AutoConfiguration(after = ZkAutoConfiguration.class)
@ConditionalOnClass(CuratorFramework.class)
@ConditionalOnBooleanProperty(name = "zk.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty(name = "zk.lock.enabled", matchIfMissing = true)
@ConditionalOnBean(CuratorFramework.class)
@EnableConfigurationProperties(ZkLockProperties.class)
public final class ZkLockAutoConfiguration {

	@Bean(destroyMethod = "destroy")
	@ConditionalOnMissingBean
	ZkLockTemplate zkLockTemplate(CuratorFramework client, SessionLease zkSessionLease, ZkLockProperties properties,
			ApplicationEventPublisher publisher) {
		return new ZkLockTemplate(client, zkSessionLease, properties.toSettings(), publisher);
	}

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static Advisor zkLockAdvisor(ObjectProvider<ZkLockTemplate> template, BeanFactory beanFactory) {
		return ZkLockAnnotationSupport.advisor(template, beanFactory);
	}

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static BeanPostProcessor zkLockMethodValidator(BeanFactory beanFactory) {
		return ZkLockAnnotationSupport.validator(beanFactory);
	}

	/** Makes sure advisors are applied even when Boot's AOP auto-configuration is off. */
	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static BeanFactoryPostProcessor zkLockAutoProxyCreatorRegistrar(Environment environment) {
		return (beanFactory) -> {
			if (beanFactory instanceof BeanDefinitionRegistry registry) {
				AopConfigUtils.registerAutoProxyCreatorIfNecessary(registry);
				if (environment.getProperty("spring.aop.proxy-target-class", Boolean.class, true)) {
					AopConfigUtils.forceAutoProxyCreatorToUseClassProxying(registry);
				}
			}
		};
	}

}
