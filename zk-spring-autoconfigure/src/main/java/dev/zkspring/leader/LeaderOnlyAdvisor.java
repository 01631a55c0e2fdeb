package dev.zkspring.leader;

import org.aopalliance.aop.Advice;

import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;

/** Applies {@link LeaderOnlyInterceptor} to methods annotated {@link LeaderOnly}. */
final class LeaderOnlyAdvisor extends AbstractPointcutAdvisor {

	private final Pointcut pointcut = new AnnotationMatchingPointcut(null, LeaderOnly.class, true);

	private final Advice advice;

	LeaderOnlyAdvisor(LeaderOnlyInterceptor interceptor) {
		this.advice = interceptor;
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
