package dev.zkspring.refresh;

import java.lang.invoke.MethodHandles;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;


import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.util.ConcurrentReferenceHashMap;
import org.springframework.util.ReflectionUtils;

/**
 * What a refresh can write in instances of one class ({@code @Value} fields and methods, handles
 * looked up once) and what it cannot (constructor-injected values, final fields, records), found by
 * reflection once per class.
 * @param members the members a refresh writes
 * @param unrefreshable what cannot be refreshed, each naming the member
 */
record ClassTargets(List<ValueMember> members, List<String> unrefreshable) {

	private static final Map<Class<?>, ClassTargets> cache = new ConcurrentReferenceHashMap<>();

	static ClassTargets of(Class<?> type) {
		return cache.computeIfAbsent(type, ClassTargets::introspect);
	}

	private static ClassTargets introspect(Class<?> type) {
		List<ValueMember> members = new ArrayList<>();
		List<String> unrefreshable = new ArrayList<>();
		if (type.isRecord()) {
			unrefreshable.add("its record components (a record's values are set once, by its constructor)");
		}
		for (Constructor<?> constructor : type.getDeclaredConstructors()) {
			constructorValues(constructor, unrefreshable);
		}
		ReflectionUtils.doWithFields(type, (field) -> {
			String expression = value(MergedAnnotations.from(field));
			if (expression == null || Modifier.isStatic(field.getModifiers())) {
				return;
			}
			if (Modifier.isFinal(field.getModifiers())) {
				unrefreshable.add("final field '" + field.getName() + "'");
				return;
			}
			try {
				members.add(new ValueMember.FieldMember(field, expression, lookup(field.getDeclaringClass())
					.unreflectVarHandle(field)));
			}
			catch (IllegalAccessException | RuntimeException ex) {
				unrefreshable.add("field '" + field.getName() + "' (not accessible: " + ex.getClass().getSimpleName() + ")");
			}
		});
		for (Method method : ReflectionUtils.getUniqueDeclaredMethods(type, ReflectionUtils.USER_DECLARED_METHODS)) {
			method(method, members, unrefreshable);
		}
		return new ClassTargets(List.copyOf(members), List.copyOf(unrefreshable));
	}

	private static void method(Method method, List<ValueMember> members, List<String> unrefreshable) {
		if (Modifier.isStatic(method.getModifiers()) || method.getParameterCount() == 0) {
			return;
		}
		MergedAnnotations annotations = MergedAnnotations.from(method);
		if (method.getReturnType() != void.class) {
			// the bean factory injects these, but a refresh calls setters that return nothing only
			boolean valued = value(annotations) != null || java.util.Arrays.stream(method.getParameters())
				.anyMatch((parameter) -> value(MergedAnnotations.from(parameter)) != null);
			if (valued) {
				unrefreshable.add("method '" + method.getName() + "' (it returns " + method.getReturnType().getSimpleName()
						+ "; declare @Value setters void)");
			}
			return;
		}
		String methodValue = value(annotations);
		boolean injected = methodValue != null || annotations.isPresent(Autowired.class)
				|| annotations.isPresent("jakarta.inject.Inject");
		if (!injected) {
			return;
		}
		List<String> expressions = new ArrayList<>();
		for (Parameter parameter : method.getParameters()) {
			String expression = value(MergedAnnotations.from(parameter));
			expressions.add((expression != null) ? expression : methodValue);
		}
		if (expressions.stream().allMatch((expression) -> expression == null)) {
			return;
		}
		if (expressions.contains(null)) {
			unrefreshable.add("method '" + method.getName() + "' (it also takes parameters without @Value)");
			return;
		}
		try {
			members.add(new ValueMember.MethodMember(method, expressions,
					lookup(method.getDeclaringClass()).unreflect(method)));
		}
		catch (IllegalAccessException | RuntimeException ex) {
			unrefreshable.add("method '" + method.getName() + "' (not accessible: " + ex.getClass().getSimpleName() + ")");
		}
	}

	/** The {@code @Value} parameters of a {@code @Bean} method: injected once, when the bean is created. */
	static List<String> factoryMethodValues(Method factoryMethod) {
		List<String> unrefreshable = new ArrayList<>();
		Parameter[] parameters = factoryMethod.getParameters();
		for (int i = 0; i < parameters.length; i++) {
			if (value(MergedAnnotations.from(parameters[i])) != null) {
				String name = parameters[i].isNamePresent() ? "'" + parameters[i].getName() + "'" : "#" + i;
				unrefreshable.add("parameter " + name + " of @Bean method '" + factoryMethod.getName() + "'");
			}
		}
		return unrefreshable;
	}

	private static void constructorValues(Executable constructor, List<String> unrefreshable) {
		Parameter[] parameters = constructor.getParameters();
		for (int i = 0; i < parameters.length; i++) {
			if (value(MergedAnnotations.from(parameters[i])) != null) {
				String name = parameters[i].isNamePresent() ? "'" + parameters[i].getName() + "'" : "#" + i;
				unrefreshable.add("constructor parameter " + name);
			}
		}
	}

	private static MethodHandles.Lookup lookup(Class<?> declaringClass) throws IllegalAccessException {
		return MethodHandles.privateLookupIn(declaringClass, MethodHandles.lookup());
	}

	private static @Nullable String value(MergedAnnotations annotations) {
		return annotations.get(Value.class).getValue("value", String.class).orElse(null);
	}

}
