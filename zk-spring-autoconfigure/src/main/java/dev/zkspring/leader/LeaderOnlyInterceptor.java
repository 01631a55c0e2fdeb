package dev.zkspring.leader;

import java.util.Optional;
import java.util.function.Supplier;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.util.ClassUtils;

/**
 * Proceeds while this instance leads (lease included), counting the call in flight so a graceful stop
 * drains it; otherwise skips the call with an empty result.
 */
final class LeaderOnlyInterceptor implements MethodInterceptor {

	private static final Log logger = LogFactory.getLog(LeaderOnlyInterceptor.class);

	private final Supplier<ZkLeaderElection> election;

	LeaderOnlyInterceptor(Supplier<ZkLeaderElection> election) {
		this.election = election;
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		ZkLeaderElection current = this.election.get();
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
					+ ": this instance does not lead");
		}
		return (invocation.getMethod().getReturnType() == Optional.class) ? Optional.empty() : null;
	}

}
