package dev.zkspring.leader;

import java.lang.reflect.Method;
import java.util.Set;
import java.util.function.Function;
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

	private final Set<String> groups;

	/**
	 * Create the post-processor.
	 * @param election the application's election, looked up on the first call
	 */
	public LeaderOnlyBeanPostProcessor(Supplier<ZkLeaderElection> election) {
		this(election, Set.of(), (group) -> election.get());
	}

	/**
	 * Create the post-processor for an application with leader groups.
	 * @param election the application's election, looked up on the first call
	 * @param groups the names configured under {@code zk.leader.groups}
	 * @param groupElection the election of a configured group, looked up on the first call
	 */
	public LeaderOnlyBeanPostProcessor(Supplier<ZkLeaderElection> election, Set<String> groups,
			Function<String, ZkLeaderElection> groupElection) {
		this.groups = Set.copyOf(groups);
		this.advisor = new LeaderOnlyAdvisor(new LeaderOnlyInterceptor(election, groupElection));
		setBeforeExistingAdvisors(true);
		setProxyTargetClass(true);
		setOrder(Ordered.LOWEST_PRECEDENCE - 1);
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (isEligible(bean, beanName)) {
			rejectPrimitiveReturns(AopUtils.getTargetClass(bean));
			rejectUnknownGroups(AopUtils.getTargetClass(bean));
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

	private void rejectUnknownGroups(Class<?> beanClass) {
		ReflectionUtils.doWithMethods(ClassUtils.getUserClass(beanClass), (method) -> {
			String group = AnnotatedElementUtils.findMergedAnnotation(method, LeaderOnly.class).group();
			if (!group.isEmpty() && !this.groups.contains(group)) {
				throw new ZkStartupException("@LeaderOnly(group = \"" + group + "\") on " + describe(method)
						+ " names a leader group that is not configured: there is no zk.leader.groups." + group + ".",
						"Add zk.leader.groups." + group + " (listing the group's Quartz job names, or none), or change the "
								+ "group of " + describe(method) + " to one of " + this.groups + ".");
			}
		}, (method) -> AnnotatedElementUtils.hasAnnotation(method, LeaderOnly.class));
	}

	private static String describe(Method method) {
		return ClassUtils.getQualifiedMethodName(method) + "()";
	}

}
