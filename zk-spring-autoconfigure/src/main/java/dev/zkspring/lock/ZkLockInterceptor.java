package dev.zkspring.lock;

import java.time.Duration;
import java.util.function.Supplier;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.ProxyMethodInvocation;
import org.springframework.aop.support.AopUtils;

/**
 * Takes the lock around a {@code @ZkLock} method, and skips or throws when it stays busy; for a Mono, Flux
 * or CompletionStage, around the result until it completes.
 */
final class ZkLockInterceptor implements MethodInterceptor {

	private final Supplier<ZkLockTemplate> template;

	private final LockOperations operations;

	ZkLockInterceptor(Supplier<ZkLockTemplate> template, LockOperations operations) {
		this.template = template;
		this.operations = operations;
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		Object target = invocation.getThis();
		Class<?> targetClass = (target != null) ? AopUtils.getTargetClass(target)
				: invocation.getMethod().getDeclaringClass();
		LockOperation operation = this.operations.get(invocation.getMethod(), targetClass);
		if (operation == null) {
			return invocation.proceed();
		}
		String key = this.operations.key(operation, invocation.getArguments(), target, targetClass);
		ZkLockTemplate template = this.template.get();
		Duration wait = (operation.wait != null) ? operation.wait : template.getDefaultWait();
		if (operation.kind != LockOperation.Kind.SYNC) {
			LockedBody body = () -> invocable(invocation).proceed();
			return (operation.kind == LockOperation.Kind.COMPLETION_STAGE)
					? StageLocking.lock(operation, template, key, wait, body)
					: ReactiveLocking.lock(operation, template, key, wait, body);
		}
		ZkLockContext context = template.acquire(operation.fixedKey, key, operation.mode, wait);
		if (context == null) {
			if (operation.onBusy == ZkLock.OnBusy.SKIP) {
				return operation.skipped();
			}
			throw new ZkLockBusyException(key, wait);
		}
		long acquiredAt = System.nanoTime();
		Throwable failure = null;
		try (ZkLockInstrumentation.Scope scope = ZkLockTemplate.openScope(context)) {
			return invocation.proceed();
		}
		catch (Throwable ex) {
			failure = ex;
			throw ex;
		}
		finally {
			template.release(operation.fixedKey, context, acquiredAt, failure);
		}
	}

	/** A fresh copy per call, so each subscription of a Mono or Flux invokes the rest of the chain once. */
	private static MethodInvocation invocable(MethodInvocation invocation) {
		return (invocation instanceof ProxyMethodInvocation proxy) ? proxy.invocableClone() : invocation;
	}

}
