package dev.zkspring.leader;

import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;

/**
 * Proceeds while this instance leads (lease included), counting the call in flight so a graceful stop
 * drains it; otherwise skips the call with an empty result.
 */
final class LeaderOnlyInterceptor implements MethodInterceptor {

	private static final Log logger = LogFactory.getLog(LeaderOnlyInterceptor.class);

	private final Supplier<ZkLeaderElection> election;

	/** By group name of {@code @LeaderOnly(group = ...)}: the group's election. */
	private final Function<String, ZkLeaderElection> groups;

	LeaderOnlyInterceptor(Supplier<ZkLeaderElection> election) {
		this(election, (group) -> election.get());
	}

	LeaderOnlyInterceptor(Supplier<ZkLeaderElection> election, Function<String, ZkLeaderElection> groups) {
		this.election = election;
		this.groups = groups;
	}

	private ZkLeaderElection electionOf(MethodInvocation invocation) {
		Object target = invocation.getThis();
		LeaderOnly leaderOnly = AnnotatedElementUtils.findMergedAnnotation((target != null)
				? AopUtils.getMostSpecificMethod(invocation.getMethod(), target.getClass()) : invocation.getMethod(),
				LeaderOnly.class);
		return (leaderOnly == null || leaderOnly.group().isEmpty()) ? this.election.get()
				: this.groups.apply(leaderOnly.group());
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		ZkLeaderElection current = electionOf(invocation);
		return current.leaderOnlyInstrumentation().observe(invocation.getMethod(), current.latchPath(),
				(whenSkipped) -> gated(current, invocation, whenSkipped));
	}

	private static @Nullable Object gated(ZkLeaderElection current, MethodInvocation invocation, Runnable whenSkipped)
			throws Throwable {
		if (current.callStarting()) {
			try {
				return invocation.proceed();
			}
			finally {
				current.callEnded();
			}
		}
		if (logger.isTraceEnabled()) {
			logger.trace("Skipped @LeaderOnly " + ClassUtils.getQualifiedMethodName(invocation.getMethod())
					+ ": this instance does not lead " + current.latchPath());
		}
		whenSkipped.run();
		return (invocation.getMethod().getReturnType() == Optional.class) ? Optional.empty() : null;
	}

}
