package dev.zkspring.lock;

import java.lang.reflect.Method;

import org.jspecify.annotations.Nullable;

/** {@code #root} of a key expression: the method, its arguments and the target. */
final class LockExpressionRoot {

	private final Method method;

	private final @Nullable Object[] args;

	private final @Nullable Object target;

	private final Class<?> targetClass;

	LockExpressionRoot(Method method, @Nullable Object[] args, @Nullable Object target, Class<?> targetClass) {
		this.method = method;
		this.args = args;
		this.target = target;
		this.targetClass = targetClass;
	}

	public Method getMethod() {
		return this.method;
	}

	public String getMethodName() {
		return this.method.getName();
	}

	public @Nullable Object[] getArgs() {
		return this.args;
	}

	public @Nullable Object getTarget() {
		return this.target;
	}

	public Class<?> getTargetClass() {
		return this.targetClass;
	}

}
