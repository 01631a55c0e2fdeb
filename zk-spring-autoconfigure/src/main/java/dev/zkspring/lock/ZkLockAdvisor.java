package dev.zkspring.lock;

import org.aopalliance.aop.Advice;

import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;

/** Applies the lock interceptor to methods annotated with {@code @ZkLock}, on classes or their interfaces. */
final class ZkLockAdvisor extends AbstractPointcutAdvisor {

	private final Pointcut pointcut = new AnnotationMatchingPointcut(null, ZkLock.class, true);

	private final Advice advice;

	ZkLockAdvisor(Advice advice, int order) {
		this.advice = advice;
		setOrder(order);
	}

	@Override
	public Pointcut getPointcut() {
		return this.pointcut;
	}

	@Override
	public Advice getAdvice() {
		return this.advice;
	}

}
