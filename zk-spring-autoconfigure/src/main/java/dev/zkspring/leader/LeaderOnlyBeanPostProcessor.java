package dev.zkspring.leader;

import java.lang.reflect.Method;
import java.util.function.Supplier;

import org.springframework.aop.framework.autoproxy.AbstractBeanFactoryAwareAdvisingPostProcessor;
import org.springframework.aop.support.AopUtils;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

import dev.zkspring.client.ZkStartupException;

/**
 * Proxies beans with {@link LeaderOnly} methods, and fails startup for one that returns a primitive.
 * Ordered after Spring's auto-proxy creators and before {@code @Scheduled} processing, so scheduled
 * calls go through the proxy. Public only so the auto-configuration can create it.
 */
public final class LeaderOnlyBeanPostProcessor extends AbstractBeanFactoryAwareAdvisingPostProcessor {

	/**
	 * Create the post-processor.
	 * @param election the application's election, looked up on the first call
	 */
	public LeaderOnlyBeanPostProcessor(Supplier<ZkLeaderElection> election) {
		this.advisor = new LeaderOnlyAdvisor(new LeaderOnlyInterceptor(election));
		setBeforeExistingAdvisors(true);
		setProxyTargetClass(true);
		setOrder(Ordered.LOWEST_PRECEDENCE - 1);
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (isEligible(bean, beanName)) {
			rejectPrimitiveReturns(AopUtils.getTargetClass(bean));
		}
		return super.postProcessAfterInitialization(bean, beanName);
	}

	private static void rejectPrimitiveReturns(Class<?> beanClass) {
		ReflectionUtils.doWithMethods(ClassUtils.getUserClass(beanClass), (method) -> {
			throw new ZkStartupException(
					"@LeaderOnly method " + describe(method) + " returns " + method.getReturnType().getName()
							+ ", a primitive: a call skipped on an instance that does not lead has nothing to return.",
					"Change the return type of " + describe(method) + " to void, to a wrapper such as "
							+ ClassUtils.resolvePrimitiveIfNecessary(method.getReturnType()).getSimpleName()
							+ " (a skipped call returns null) or to Optional (it returns Optional.empty()).");
		}, (method) -> method.getReturnType().isPrimitive() && method.getReturnType() != void.class
				&& AnnotatedElementUtils.hasAnnotation(method, LeaderOnly.class));
	}

	private static String describe(Method method) {
		return ClassUtils.getQualifiedMethodName(method) + "()";
	}

}
