package dev.zkspring.publish;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.jspecify.annotations.Nullable;

/**
 * A declared type as the configuration metadata writes it ({@code java.util.Map<java.lang.String,java.lang.Integer>},
 * {@code int}, {@code com.acme.Shop$Owner[]}), read from the metadata's text or from a class file's descriptor or
 * generic signature, never by loading the class it names.
 * @param name the binary class name, a primitive's name, {@link #ARRAY} or {@link #UNKNOWN_NAME}
 * @param args the type arguments (the element type of an array)
 */
record TypeRef(String name, List<TypeRef> args) {

	static final String ARRAY = "[]";

	static final String UNKNOWN_NAME = "?";

	static final TypeRef OBJECT = new TypeRef("java.lang.Object", List.of());

	static final TypeRef STRING = new TypeRef("java.lang.String", List.of());

	/** A type variable or anything else a class file does not pin down. */
	static final TypeRef UNKNOWN = new TypeRef(UNKNOWN_NAME, List.of());

	boolean isArray() {
		return ARRAY.equals(this.name);
	}

	boolean isUnknown() {
		return UNKNOWN_NAME.equals(this.name);
	}

	/** Whether the binder treats it as indexed elements: an array or a {@code java.util} collection. */
	boolean isCollection() {
		return isArray() || jdkSubtypeOf(Collection.class);
	}

	/** Whether the binder treats it as keyed entries: a {@code java.util} map. */
	boolean isMap() {
		return jdkSubtypeOf(Map.class);
	}

	/** The element type of a collection or array ({@code Object} when raw). */
	TypeRef element() {
		return this.args.isEmpty() ? OBJECT : this.args.get(0);
	}

	/** The value type of a map ({@code String} for {@code Properties}, {@code Object} when raw). */
	TypeRef mapValue() {
		if (this.args.size() == 2) {
			return this.args.get(1);
		}
		return jdkSubtypeOf(Properties.class) ? STRING : OBJECT;
	}

	private boolean jdkSubtypeOf(Class<?> type) {
		if (!this.name.startsWith("java.util.")) {
			return false;
		}
		try {
			return type.isAssignableFrom(Class.forName(this.name, false, TypeRef.class.getClassLoader()));
		}
		catch (ClassNotFoundException | LinkageError ex) {
			return false;
		}
	}

	@Override
	public String toString() {
		if (isArray()) {
			return element() + "[]";
		}
		if (this.args.isEmpty()) {
			return this.name;
		}
		StringBuilder text = new StringBuilder(this.name).append('<');
		for (int i = 0; i < this.args.size(); i++) {
			text.append((i > 0) ? "," : "").append(this.args.get(i));
		}
		return text.append('>').toString();
	}

	/** A type as {@code spring-configuration-metadata.json} writes it. */
	static TypeRef parse(String text) {
		int[] at = { 0 };
		TypeRef type = parse(text.replace(" ", ""), at);
		return (at[0] == text.replace(" ", "").length()) ? type : UNKNOWN;
	}

	private static TypeRef parse(String text, int[] at) {
		if (text.startsWith("?", at[0])) {
			at[0]++;
			if (text.startsWith("extends", at[0])) {
				at[0] += "extends".length();
				return parse(text, at);
			}
			if (text.startsWith("super", at[0])) {
				at[0] += "super".length();
				parse(text, at);
			}
			return OBJECT;
		}
		int start = at[0];
		while (at[0] < text.length() && "<>,[".indexOf(text.charAt(at[0])) < 0) {
			at[0]++;
		}
		String name = text.substring(start, at[0]);
		List<TypeRef> args = new ArrayList<>();
		if (text.startsWith("<", at[0])) {
			at[0]++;
			while (at[0] < text.length() && text.charAt(at[0]) != '>') {
				args.add(parse(text, at));
				if (text.startsWith(",", at[0])) {
					at[0]++;
				}
			}
			at[0]++;
		}
		TypeRef type = name.isEmpty() ? UNKNOWN : new TypeRef(name, List.copyOf(args));
		while (text.startsWith("[]", at[0])) {
			at[0] += 2;
			type = new TypeRef(ARRAY, List.of(type));
		}
		return type;
	}

	/** The parameter types of a method from its generic signature or, without one, its descriptor. */
	static List<TypeRef> parameters(String descriptorOrSignature) {
		String text = descriptorOrSignature;
		int[] at = { 0 };
		if (text.startsWith("<")) {
			int depth = 0;
			do {
				char c = text.charAt(at[0]++);
				depth += (c == '<') ? 1 : (c == '>') ? -1 : 0;
			}
			while (depth > 0);
		}
		at[0]++; // '('
		List<TypeRef> parameters = new ArrayList<>();
		while (text.charAt(at[0]) != ')') {
			parameters.add(signature(text, at));
		}
		return parameters;
	}

	/** The return type of a method from its generic signature or descriptor. */
	static TypeRef returned(String descriptorOrSignature) {
		int[] at = { descriptorOrSignature.lastIndexOf(')') + 1 };
		return signature(descriptorOrSignature, at);
	}

	/** One type from a field descriptor or generic signature. */
	static TypeRef signature(String text) {
		return signature(text, new int[] { 0 });
	}

	private static TypeRef signature(String text, int[] at) {
		char c = text.charAt(at[0]++);
		switch (c) {
			case '[':
				return new TypeRef(ARRAY, List.of(signature(text, at)));
			case 'T':
				at[0] = text.indexOf(';', at[0]) + 1;
				return UNKNOWN;
			case 'L':
				return classSignature(text, at);
			default:
				String primitive = primitive(c);
				return (primitive != null) ? new TypeRef(primitive, List.of()) : UNKNOWN;
		}
	}

	private static TypeRef classSignature(String text, int[] at) {
		StringBuilder name = new StringBuilder();
		List<TypeRef> args = new ArrayList<>();
		while (true) {
			int start = at[0];
			while ("<;.".indexOf(text.charAt(at[0])) < 0) {
				at[0]++;
			}
			name.append(text, start, at[0]);
			args = new ArrayList<>();
			if (text.charAt(at[0]) == '<') {
				at[0]++;
				while (text.charAt(at[0]) != '>') {
					char wildcard = text.charAt(at[0]);
					if (wildcard == '*') {
						at[0]++;
						args.add(OBJECT);
					}
					else if (wildcard == '+') {
						at[0]++;
						args.add(signature(text, at));
					}
					else if (wildcard == '-') {
						at[0]++;
						signature(text, at);
						args.add(OBJECT);
					}
					else {
						args.add(signature(text, at));
					}
				}
				at[0]++;
			}
			if (text.charAt(at[0]) == '.') {
				at[0]++;
				name.append('$');
				continue;
			}
			at[0]++; // ';'
			return new TypeRef(name.toString().replace('/', '.'), List.copyOf(args));
		}
	}

	private static @Nullable String primitive(char descriptor) {
		return switch (descriptor) {
			case 'B' -> "byte";
			case 'C' -> "char";
			case 'D' -> "double";
			case 'F' -> "float";
			case 'I' -> "int";
			case 'J' -> "long";
			case 'S' -> "short";
			case 'Z' -> "boolean";
			case 'V' -> "void";
			default -> null;
		};
	}

}
