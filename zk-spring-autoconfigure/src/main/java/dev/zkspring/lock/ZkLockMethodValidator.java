package dev.zkspring.lock;

import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Checks the {@code @ZkLock} methods of every bean as it is created, before any proxy is made for it, so
 * invalid use fails at startup.
 */
final class ZkLockMethodValidator implements BeanPostProcessor {

	private final LockOperations operations;

	ZkLockMethodValidator(LockOperations operations) {
		this.operations = operations;
	}

	@Override
	public Object postProcessBeforeInitialization(Object bean, String beanName) {
		this.operations.validate(AopProxyUtils.ultimateTargetClass(bean));
		return bean;
	}

}
