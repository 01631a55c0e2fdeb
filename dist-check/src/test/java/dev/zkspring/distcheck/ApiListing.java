package dev.zkspring.distcheck;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.net.URISyntaxException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.springframework.asm.ClassReader;
import org.springframework.asm.Opcodes;

/**
 * The public API of one module as text: every public type of its non-internal packages with its public and
 * (for extensible types) protected members, one line each, sorted, from the compiled classes.
 */
final class ApiListing {

	private ApiListing() {
	}

	/** Lists the classes in the directory or jar holding {@code anchor}, skipping packages {@code internal} names. */
	static List<String> of(Class<?> anchor, Predicate<String> internal) throws IOException, URISyntaxException {
		Path location = Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
		if (Files.isDirectory(location)) {
			return list(location, anchor.getClassLoader(), internal);
		}
		try (FileSystem jar = FileSystems.newFileSystem(location)) {
			return list(jar.getPath("/"), anchor.getClassLoader(), internal);
		}
	}

	private static List<String> list(Path root, ClassLoader loader, Predicate<String> internal) throws IOException {
		List<String> classNames = new ArrayList<>();
		List<Path> classFiles;
		try (Stream<Path> files = Files.walk(root)) {
			classFiles = files.filter((file) -> file.toString().endsWith(".class")).toList();
		}
		for (Path file : classFiles) {
			String name = root.relativize(file).toString().replace('\\', '/');
			if (name.startsWith("META-INF/") || name.endsWith("package-info.class") || name.endsWith("module-info.class")) {
				continue;
			}
			// read the access flags first: a class that is not public may extend an optional library's class
			// that is not on this class path, so it is never loaded
			if ((new ClassReader(Files.readAllBytes(file)).getAccess() & Opcodes.ACC_PUBLIC) != 0) {
				classNames.add(name.substring(0, name.length() - ".class".length()).replace('/', '.'));
			}
		}
		TreeMap<String, List<String>> types = new TreeMap<>();
		for (String className : classNames) {
			Class<?> type;
			try {
				type = Class.forName(className, false, loader);
			}
			catch (ClassNotFoundException | LinkageError ex) {
				throw new IllegalStateException("Cannot load " + className + " to list its API: " + ex, ex);
			}
			if (type.isSynthetic() || type.isAnonymousClass() || type.isLocalClass() || !visible(type)
					|| internal.test(type.getPackageName())) {
				continue;
			}
			types.put(type.getName(), describe(type));
		}
		List<String> lines = new ArrayList<>();
		types.values().forEach(lines::addAll);
		return lines;
	}

	private static boolean visible(Class<?> type) {
		for (Class<?> t = type; t != null; t = t.getDeclaringClass()) {
			int modifiers = t.getModifiers();
			boolean protectedInExtensible = Modifier.isProtected(modifiers) && t.getDeclaringClass() != null
					&& !Modifier.isFinal(t.getDeclaringClass().getModifiers());
			if (!Modifier.isPublic(modifiers) && !protectedInExtensible) {
				return false;
			}
		}
		return true;
	}

	private static List<String> describe(Class<?> type) {
		List<String> lines = new ArrayList<>();
		// JDK 17 leaves sealed and non-sealed out of toGenericString and later JDKs put them in (an enum with
		// constant bodies is sealed): left out, so the listing reads the same whichever JDK builds
		StringBuilder header = new StringBuilder(type.toGenericString().replaceAll("\\b(non-)?sealed ", ""));
		Type superclass = type.getGenericSuperclass();
		if (superclass != null && superclass != Object.class && !type.isEnum() && !type.isRecord()) {
			header.append(" extends ").append(superclass.getTypeName());
		}
		Type[] interfaces = type.getGenericInterfaces();
		if (interfaces.length > 0 && !type.isAnnotation()) {
			header.append(type.isInterface() ? " extends " : " implements ")
				.append(Arrays.stream(interfaces).map(Type::getTypeName).collect(Collectors.joining(", ")));
		}
		lines.add(header.toString());
		boolean extensible = !Modifier.isFinal(type.getModifiers()) && !type.isEnum() && !type.isRecord();
		List<String> members = new ArrayList<>();
		for (Field field : type.getDeclaredFields()) {
			if (!field.isSynthetic() && exposed(field, extensible)) {
				members.add(field.toGenericString().replace(type.getTypeName() + "." + field.getName(), field.getName()));
			}
		}
		for (Constructor<?> constructor : type.getDeclaredConstructors()) {
			if (!constructor.isSynthetic() && exposed(constructor, extensible) && !type.isEnum()) {
				members.add(constructor.toGenericString());
			}
		}
		for (Method method : type.getDeclaredMethods()) {
			if (method.isSynthetic() || method.isBridge() || !exposed(method, extensible)) {
				continue;
			}
			String line = method.toGenericString()
				.replace(type.getTypeName() + "." + method.getName() + "(", method.getName() + "(");
			if (method.getDefaultValue() != null) {
				line += " default " + value(method.getDefaultValue());
			}
			members.add(line);
		}
		members.stream().sorted().map((member) -> "  " + member).forEach(lines::add);
		return lines;
	}

	private static boolean exposed(Member member, boolean extensible) {
		int modifiers = member.getModifiers();
		return Modifier.isPublic(modifiers) || (extensible && Modifier.isProtected(modifiers)
				&& !(member instanceof Executable executable && executable.isSynthetic()));
	}

	private static String value(Object value) {
		if (value instanceof Object[] array) {
			return Arrays.stream(array).map(ApiListing::value).collect(Collectors.joining(", ", "{", "}"));
		}
		if (value.getClass().isArray()) {
			return Arrays.toString(toObjects(value));
		}
		if (value instanceof String string) {
			return '"' + string + '"';
		}
		if (value instanceof Class<?> clazz) {
			return clazz.getName() + ".class";
		}
		return String.valueOf(value);
	}

	private static Object[] toObjects(Object primitiveArray) {
		int length = java.lang.reflect.Array.getLength(primitiveArray);
		Object[] objects = new Object[length];
		for (int i = 0; i < length; i++) {
			objects[i] = java.lang.reflect.Array.get(primitiveArray, i);
		}
		return objects;
	}

}
