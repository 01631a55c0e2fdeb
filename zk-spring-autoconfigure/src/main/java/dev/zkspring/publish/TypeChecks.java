package dev.zkspring.publish;

import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.core.convert.ConversionService;
import org.springframework.util.StringUtils;

/**
 * Judges a value against a declared type as the application's binder will: JDK and Spring types (int, long,
 * boolean, {@code Duration}, {@code DataSize}, lists...) with Spring Boot's conversion service; an enum of the
 * application or of its libraries by its constants, read from its class file, never by loading it (its static
 * initialiser would run in the tool). A type it cannot judge is reported as not checked, never as passing.
 */
final class TypeChecks {

	private static final Map<String, String> PRIMITIVES = Map.of("int", "java.lang.Integer", "long", "java.lang.Long",
			"boolean", "java.lang.Boolean", "double", "java.lang.Double", "float", "java.lang.Float", "short",
			"java.lang.Short", "byte", "java.lang.Byte", "char", "java.lang.Character");

	/** The tool's own packages: classes it may load, since they are its code, not the application's. */
	private static final List<String> TRUSTED = List.of("java.", "javax.", "org.springframework.");

	private final ConversionService conversion = ApplicationConversionService.getSharedInstance();

	private final JarClasses classes;

	TypeChecks(JarClasses classes) {
		this.classes = classes;
	}

	/** Whether the binder takes a value of this type as one value (not as nested keys). */
	boolean scalar(TypeRef type) {
		if (type.isCollection() || type.isMap() || type.isUnknown()) {
			return false;
		}
		if (trusted(type) != null || PRIMITIVES.containsKey(type.name())) {
			return true;
		}
		ClassShape shape = this.classes.shape(type.name());
		return shape != null && shape.isEnum;
	}

	/**
	 * Check one value against the type it binds to (the element's type for a list index or a map entry).
	 * @return a finding when the value does not convert or cannot be judged, else null
	 */
	@Nullable MetadataFinding check(String key, String value, TypeRef type) {
		if (value.isEmpty()) {
			return null;
		}
		if (type.isCollection()) {
			TypeRef element = type.element();
			if (!scalar(element)) {
				return unjudged(key, type, "a list of " + element + " takes indexed keys");
			}
			for (String part : StringUtils.commaDelimitedListToStringArray(value)) {
				MetadataFinding finding = check(key, part.trim(), element);
				if (finding != null) {
					return finding.error() ? new MetadataFinding(key, MetadataFinding.Kind.INVALID,
							"key '" + key + "' does not convert to " + type + " as the application declares it"
									+ hint(element) + ": fix the value") : finding;
				}
			}
			return null;
		}
		if (type.isMap()) {
			return unjudged(key, type, "a map takes keyed entries, not one value");
		}
		if (type.isUnknown()) {
			return unjudged(key, type, "its declared type is a type variable");
		}
		Class<?> target = trusted(type);
		if (target != null) {
			if (target == Object.class || target == String.class || target == CharSequence.class) {
				return null;
			}
			if (target == Class.class || !this.conversion.canConvert(String.class, target)) {
				return unjudged(key, type, "the tool has no converter to " + type);
			}
			try {
				this.conversion.convert(value, target);
				return null;
			}
			catch (RuntimeException ex) {
				return invalid(key, type, hint(type));
			}
		}
		ClassShape shape = this.classes.shape(type.name());
		if (shape == null) {
			return unjudged(key, type, "its type " + type + " is not in " + this.classes.where());
		}
		if (!shape.isEnum) {
			return unjudged(key, type, "its type " + type + " is converted by code of the application, which the "
					+ "tool does not run");
		}
		return (LenientEnum.matches(value, shape.enumConstants)) ? null : invalid(key, type, hint(type));
	}

	private static MetadataFinding invalid(String key, TypeRef type, String hint) {
		return new MetadataFinding(key, MetadataFinding.Kind.INVALID, "key '" + key + "' does not convert to " + type
				+ " as the application declares it" + hint + ": fix the value");
	}

	static MetadataFinding unjudged(String key, TypeRef type, String reason) {
		return new MetadataFinding(key, MetadataFinding.Kind.UNCHECKED, "key '" + key + "' cannot be checked: "
				+ reason);
	}

	/** The class of a JDK or Spring type or primitive, from the tool's own class path; null for any other. */
	private static @Nullable Class<?> trusted(TypeRef type) {
		String name = PRIMITIVES.getOrDefault(type.name(), type.name());
		if (TRUSTED.stream().noneMatch(name::startsWith)) {
			return null;
		}
		try {
			return Class.forName(name, false, TypeChecks.class.getClassLoader());
		}
		catch (ClassNotFoundException | LinkageError ex) {
			return null;
		}
	}

	private String hint(TypeRef type) {
		Class<?> target = trusted(type);
		if (target == null) {
			ClassShape shape = this.classes.shape(type.name());
			return (shape != null && shape.isEnum) ? " (one of " + shape.enumConstants + ")" : "";
		}
		return switch (target.getSimpleName()) {
			case "Duration" -> " (a duration such as 10s or 500ms)";
			case "DataSize" -> " (a size such as 10MB)";
			case "Boolean" -> " (true or false)";
			default -> "";
		};
	}

	/**
	 * Spring Boot's lenient conversion of a string to an enum, on constant names: the exact name, else the
	 * name compared on lower-case letters and digits only ({@code closed-for-maintenance} is
	 * {@code CLOSED_FOR_MAINTENANCE}), with {@code on}/{@code off} for constants named so when YAML read them
	 * as {@code true}/{@code false}.
	 */
	static final class LenientEnum {

		private LenientEnum() {
		}

		static boolean matches(String value, List<String> constants) {
			String trimmed = value.trim();
			if (trimmed.isEmpty() || constants.contains(trimmed)) {
				return true;
			}
			String name = canonical(trimmed);
			String alias = switch (name) {
				case "true" -> "on";
				case "false" -> "off";
				default -> null;
			};
			for (String constant : constants) {
				String candidate = canonical(constant);
				if (candidate.equals(name) || candidate.equals(alias)) {
					return true;
				}
			}
			return false;
		}

		private static String canonical(String name) {
			StringBuilder canonical = new StringBuilder(name.length());
			name.chars()
				.filter(Character::isLetterOrDigit)
				.forEach((c) -> canonical.append(Character.toLowerCase((char) c)));
			return canonical.toString().toLowerCase(Locale.ROOT);
		}

	}

}
