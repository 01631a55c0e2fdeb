package dev.zkspring.lock;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.MethodClassKey;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.ast.VariableReference;
import org.springframework.expression.spel.standard.SpelExpression;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.scheduling.annotation.Async;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.StringUtils;

import dev.zkspring.client.ZkStartupException;

/**
 * Finds, checks and caches the {@code @ZkLock} methods of a class, and evaluates their keys. Anything that
 * cannot work (bad SpEL, an unknown {@code #name}, an unreadable wait time, SKIP on a primitive, an
 * asynchronous return type the lock cannot follow) is a {@link ZkStartupException} naming the method.
 */
final class LockOperations {

	private static final Object NONE = new Object();

	private static final String MONO = "reactor.core.publisher.Mono";

	private static final String FLUX = "reactor.core.publisher.Flux";

	private final SpelExpressionParser parser = new SpelExpressionParser();

	private final ParameterNameDiscoverer parameterNames = new DefaultParameterNameDiscoverer();

	private final Map<MethodClassKey, Object> cache = new ConcurrentHashMap<>();

	private final @Nullable BeanFactory beanFactory;

	LockOperations(@Nullable BeanFactory beanFactory) {
		this.beanFactory = beanFactory;
	}

	/** Check every {@code @ZkLock} method of the class, failing on the first that cannot work. */
	void validate(Class<?> targetClass) {
		Class<?> userClass = ClassUtils.getUserClass(targetClass);
		if (!AnnotationUtils.isCandidateClass(userClass, ZkLock.class)) {
			return;
		}
		for (Method method : ReflectionUtils.getUniqueDeclaredMethods(userClass, ReflectionUtils.USER_DECLARED_METHODS)) {
			if (AnnotatedElementUtils.hasAnnotation(method, ZkLock.class)) {
				get(method, userClass);
			}
		}
	}

	@Nullable LockOperation get(Method method, Class<?> targetClass) {
		Object operation = this.cache.computeIfAbsent(new MethodClassKey(method, targetClass), (key) -> {
			Method specific = AopUtils.getMostSpecificMethod(method, targetClass);
			ZkLock annotation = AnnotatedElementUtils.findMergedAnnotation(specific, ZkLock.class);
			return (annotation != null) ? compile(specific, annotation, targetClass) : NONE;
		});
		return (operation != NONE) ? (LockOperation) operation : null;
	}

	String key(LockOperation operation, @Nullable Object[] args, @Nullable Object target, Class<?> targetClass) {
		Expression expression = operation.key;
		if (expression == null) {
			return operation.fixedKey;
		}
		LockExpressionRoot root = new LockExpressionRoot(operation.method, args, target, targetClass);
		MethodBasedEvaluationContext context = new MethodBasedEvaluationContext(root, operation.method, args,
				this.parameterNames);
		if (this.beanFactory != null) {
			context.setBeanResolver(new BeanFactoryResolver(this.beanFactory));
		}
		Object key = expression.getValue(context);
		if (key == null) {
			throw new IllegalArgumentException("The key of @ZkLock on " + operation.description + " ('"
					+ operation.fixedKey + "') evaluated to null; make the expression always yield a value.");
		}
		String text;
		try {
			text = KeyValues.render(key);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("The key of @ZkLock on " + operation.description + " ('"
					+ operation.fixedKey + "') evaluated to " + ex.getMessage() + "; key by a value, such as "
					+ "#order.id, or give the class a toString() of its content.", ex);
		}
		String problem = LockKeys.problem(text);
		if (problem != null) {
			throw new IllegalArgumentException("The key of @ZkLock on " + operation.description + " ('"
					+ operation.fixedKey + "') " + problem);
		}
		return text;
	}

	private LockOperation compile(Method method, ZkLock annotation, Class<?> targetClass) {
		String description = describe(method, targetClass);
		int modifiers = method.getModifiers();
		if (Modifier.isPrivate(modifiers) || Modifier.isFinal(modifiers) || Modifier.isStatic(modifiers)) {
			throw new ZkStartupException("@ZkLock on " + description + " has no effect: the method is "
					+ (Modifier.isPrivate(modifiers) ? "private" : Modifier.isFinal(modifiers) ? "final" : "static")
					+ ", so the proxy cannot intercept it and it would run without the lock.",
					"Make the method public (or protected) and neither final nor static, and call it through the bean, "
							+ "not from inside the same class.");
		}
		LockOperation.Kind kind = kind(method, annotation, targetClass, description);
		Duration wait = wait(annotation.waitTime(), description);
		String keyText = annotation.key();
		if (!StringUtils.hasText(keyText)) {
			String fixed = ClassUtils.getUserClass(targetClass).getSimpleName() + "." + method.getName();
			return new LockOperation(method, description, null, fixed, wait, annotation.mode(), annotation.onBusy(),
					kind);
		}
		Expression expression;
		try {
			expression = this.parser.parseExpression(keyText);
		}
		catch (ParseException ex) {
			throw new ZkStartupException("@ZkLock on " + description + " has a key that is not valid SpEL: '" + keyText
					+ "' (" + ex.getSimpleMessage() + " at position " + ex.getPosition() + ").",
					"Fix the key expression, for example key = \"'stock:' + #sku\" (string literals in single quotes, "
							+ "parameters as #name).");
		}
		checkVariables(method, expression, keyText, description);
		return new LockOperation(method, description, expression, keyText, wait, annotation.mode(),
				annotation.onBusy(), kind);
	}

	private void checkVariables(Method method, Expression expression, String keyText, String description) {
		if (!(expression instanceof SpelExpression spel)) {
			return;
		}
		Set<String> known = new HashSet<>(Arrays.asList("root", "this"));
		String[] names = this.parameterNames.getParameterNames(method);
		if (names != null) {
			known.addAll(Arrays.asList(names));
		}
		for (int i = 0; i < method.getParameterCount(); i++) {
			known.add("p" + i);
			known.add("a" + i);
		}
		List<String> used = new ArrayList<>();
		collectVariables(spel.getAST(), used);
		for (String variable : used) {
			if (!known.contains(variable)) {
				String parameters = (names != null) ? String.join(", ", names) : "unknown";
				throw new ZkStartupException("@ZkLock on " + description + " has key '" + keyText + "', which refers to #"
						+ variable + ", but the method has no such parameter (parameter names: " + parameters + ").",
						"Use one of the parameter names, or #p0, #p1... by position. If the names show as arg0, arg1, "
								+ "compile with -parameters (maven-compiler-plugin <parameters>true</parameters>).");
			}
		}
	}

	private static void collectVariables(SpelNode node, List<String> names) {
		if (node instanceof VariableReference) {
			names.add(node.toStringAST().substring(1));
		}
		for (int i = 0; i < node.getChildCount(); i++) {
			collectVariables(node.getChild(i), names);
		}
	}

	private @Nullable Duration wait(String text, String description) {
		String resolved = text;
		if (this.beanFactory instanceof ConfigurableBeanFactory configurable && text.contains("${")) {
			resolved = configurable.resolveEmbeddedValue(text);
		}
		if (!StringUtils.hasText(resolved)) {
			return null;
		}
		Duration wait;
		try {
			wait = DurationStyle.detectAndParse(resolved.trim());
		}
		catch (IllegalArgumentException ex) {
			throw new ZkStartupException("@ZkLock on " + description + " has waitTime '" + text
					+ "', which is not a duration.", "Write the wait as \"3s\", \"500ms\", \"1m\", ISO-8601 such as "
							+ "\"PT3S\", or \"0\" to try once; leave it empty for zk.lock.default-wait.");
		}
		if (wait.isNegative()) {
			throw new ZkStartupException("@ZkLock on " + description + " has a negative waitTime '" + text + "'.",
					"Use \"0\" to try once, or a positive duration such as \"3s\".");
		}
		return wait;
	}

	/**
	 * How the lock waits for the method's result: Mono, Flux, CompletionStage and CompletableFuture are
	 * held until they complete (unless the method is {@code @Async}, whose executor runs the body as a
	 * plain call); other asynchronous types cannot be followed and are refused.
	 */
	private static LockOperation.Kind kind(Method method, ZkLock annotation, Class<?> targetClass,
			String description) {
		Class<?> type = method.getReturnType();
		if (annotation.onBusy() == ZkLock.OnBusy.SKIP && type.isPrimitive() && type != void.class) {
			throw new ZkStartupException("@ZkLock(onBusy = SKIP) on " + description + " returns " + type.getName()
					+ ", which cannot be null when the call is skipped.",
					"Return the wrapper type (" + ClassUtils.resolvePrimitiveIfNecessary(type).getSimpleName()
							+ ") or an Optional, or use onBusy = THROW.");
		}
		if (AnnotatedElementUtils.hasAnnotation(method, Async.class)
				|| AnnotatedElementUtils.hasAnnotation(targetClass, Async.class)) {
			return LockOperation.Kind.SYNC;
		}
		if (type.getName().equals(MONO)) {
			return LockOperation.Kind.MONO;
		}
		if (type.getName().equals(FLUX)) {
			return LockOperation.Kind.FLUX;
		}
		if (type == CompletionStage.class || type == CompletableFuture.class) {
			return LockOperation.Kind.COMPLETION_STAGE;
		}
		boolean asynchronous = Future.class.isAssignableFrom(type) || CompletionStage.class.isAssignableFrom(type)
				|| type.getName().startsWith("reactor.core.publisher.")
				|| type.getName().equals("org.reactivestreams.Publisher");
		if (asynchronous) {
			throw new ZkStartupException("@ZkLock on " + description + " returns " + type.getSimpleName()
					+ ", whose completion the lock cannot follow: it would be released when the method returns, "
					+ "before the asynchronous work completes.",
					"Return Mono, Flux, CompletableFuture or CompletionStage (held until the result completes), "
							+ "or make the method do its work synchronously and add @Async.");
		}
		return LockOperation.Kind.SYNC;
	}

	private static String describe(Method method, Class<?> targetClass) {
		String parameters = Arrays.stream(method.getParameterTypes())
			.map(Class::getSimpleName)
			.collect(Collectors.joining(", "));
		return ClassUtils.getUserClass(targetClass).getSimpleName() + "." + method.getName() + "(" + parameters + ")";
	}

}
