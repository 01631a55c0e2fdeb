package dev.zkspring.refresh;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.TypeConverter;
import org.springframework.core.MethodParameter;

/**
 * One {@code @Value} injection point of a class that a refresh can write again: a field, or a method
 * whose every parameter has a {@code @Value} expression. Its handle is looked up once per class.
 */
abstract sealed class ValueMember permits ValueMember.FieldMember, ValueMember.MethodMember {

	private final List<String> expressions;

	ValueMember(List<String> expressions) {
		this.expressions = List.copyOf(expressions);
	}

	/** One expression per value the member takes. */
	final List<String> expressions() {
		return this.expressions;
	}

	/** Convert raw values (placeholders and SpEL resolved) for the member's generic types. */
	final @Nullable Object[] convert(TypeConverter converter, @Nullable Object[] raw) {
		@Nullable Object[] converted = new Object[raw.length];
		for (int i = 0; i < raw.length; i++) {
			converted[i] = convert(converter, raw[i], i);
		}
		return converted;
	}

	/** Convert the raw value of one expression for the generic type it is injected as. */
	abstract @Nullable Object convert(TypeConverter converter, @Nullable Object raw, int index);

	/** Write converted values into a bean. */
	abstract void write(Object bean, @Nullable Object[] values) throws Throwable;

	/** The Java type of the value at an index, as users wrote it. */
	abstract String typeName(int index);

	/** How a log line or an event names the member, such as {@code field 'greeting'}. */
	abstract String describe();

	/** A {@code @Value} field, written through a {@link VarHandle} with volatile semantics. */
	static final class FieldMember extends ValueMember {

		private final Field field;

		private final VarHandle handle;

		FieldMember(Field field, String expression, VarHandle handle) {
			super(List.of(expression));
			this.field = field;
			this.handle = handle;
		}

		@Override
		@Nullable Object convert(TypeConverter converter, @Nullable Object raw, int index) {
			return converter.convertIfNecessary(raw, this.field.getType(), this.field);
		}

		@Override
		void write(Object bean, @Nullable Object[] values) {
			this.handle.setVolatile(bean, values[0]);
		}

		@Override
		String typeName(int index) {
			return this.field.getGenericType().getTypeName();
		}

		@Override
		String describe() {
			return "field '" + this.field.getName() + "'";
		}

	}

	/** A {@code @Value} setter or injection method, invoked again through a {@link MethodHandle}. */
	static final class MethodMember extends ValueMember {

		private final Method method;

		private final MethodHandle handle;

		private final MethodParameter[] parameters;

		MethodMember(Method method, List<String> expressions, MethodHandle handle) {
			super(expressions);
			this.method = method;
			this.handle = handle;
			this.parameters = new MethodParameter[method.getParameterCount()];
			Arrays.setAll(this.parameters, (index) -> new MethodParameter(method, index));
		}

		@Override
		@Nullable Object convert(TypeConverter converter, @Nullable Object raw, int index) {
			return converter.convertIfNecessary(raw, this.parameters[index].getParameterType(), this.parameters[index]);
		}

		@Override
		void write(Object bean, @Nullable Object[] values) throws Throwable {
			Object[] arguments = new Object[values.length + 1];
			arguments[0] = bean;
			System.arraycopy(values, 0, arguments, 1, values.length);
			this.handle.invokeWithArguments(arguments);
		}

		@Override
		String typeName(int index) {
			return this.parameters[index].getGenericParameterType().getTypeName();
		}

		@Override
		String describe() {
			return "method '" + this.method.getName() + "'";
		}

	}

}
