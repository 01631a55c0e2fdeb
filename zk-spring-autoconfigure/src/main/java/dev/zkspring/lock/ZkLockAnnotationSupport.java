package dev.zkspring.lock;

import org.springframework.aop.Advisor;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.core.Ordered;

/**
 * The infrastructure behind {@code @ZkLock}, for the auto-configuration: an advisor (no AspectJ
 * needed) and a bean post-processor that rejects invalid use at startup.
 */
public final class ZkLockAnnotationSupport {

	/**
	 * The advisor's order: before {@code @Transactional}'s default (lowest precedence), so the lock is
	 * taken before the transaction begins and released after it commits.
	 */
	public static final int ADVISOR_ORDER = Ordered.LOWEST_PRECEDENCE - 100;

	private ZkLockAnnotationSupport() {
	}

	/**
	 * The advisor that locks {@code @ZkLock} methods; it resolves the template on first use only.
	 * @param template the template whose locks the methods take
	 * @param beanFactory resolves {@code @bean} references in keys and placeholders in wait times
	 * @return the advisor
	 */
	public static Advisor advisor(ObjectProvider<ZkLockTemplate> template, BeanFactory beanFactory) {
		return new ZkLockAdvisor(new ZkLockInterceptor(template::getObject, new LockOperations(beanFactory)),
				ADVISOR_ORDER);
	}

	/**
	 * A post-processor that checks every bean's {@code @ZkLock} methods as the bean is created.
	 * @param beanFactory resolves placeholders in wait times
	 * @return the validator
	 */
	public static BeanPostProcessor validator(BeanFactory beanFactory) {
		return new ZkLockMethodValidator(new LockOperations(beanFactory));
	}

}
