package dev.zkspring.publish;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.core.convert.ConversionService;

/**
 * Converts a value to a declared type with Spring Boot's conversion service (int, long, boolean,
 * {@code Duration}, {@code DataSize}, enums, lists...). A type the tool does not have (an application's
 * enum) is loaded from the application's jar, without running its code.
 */
final class TypeChecks {

	private static final Map<String, String> PRIMITIVES = Map.of("int", "java.lang.Integer", "long", "java.lang.Long",
			"boolean", "java.lang.Boolean", "double", "java.lang.Double", "float", "java.lang.Float", "short",
			"java.lang.Short", "byte", "java.lang.Byte", "char", "java.lang.Character");

	private final ConversionService conversion = ApplicationConversionService.getSharedInstance();

	private final @Nullable Path jar;

	private @Nullable ClassLoader applicationLoader;

	TypeChecks(Path source) {
		this.jar = source.getFileName().toString().endsWith(".jar") ? source : null;
	}

	/**
	 * @param element whether the key is one element of the declared type (a list index, a map entry)
	 */
	@Nullable MetadataFinding check(String key, String value, String declared, boolean element) {
		String type = declared.replace(" ", "");
		boolean container = false;
		if (type.endsWith("[]")) {
			type = type.substring(0, type.length() - 2);
			container = true;
		}
		else if (type.matches("java\\.util\\.(List|Set|Collection|SortedSet)<.+>")) {
			type = type.substring(type.indexOf('<') + 1, type.length() - 1);
			container = true;
		}
		else if (type.startsWith("java.util.Map<") && type.endsWith(">")) {
			if (!element) {
				return null;
			}
			type = type.substring(type.indexOf(',') + 1, type.length() - 1);
			element = false;
		}
		if (element && !container || value.isEmpty()) {
			return null;
		}
		Class<?> target = load(PRIMITIVES.getOrDefault(type, type));
		if (target == null || !simple(target)) {
			return null;
		}
		Class<?> converted = (container && !element) ? java.lang.reflect.Array.newInstance(target, 0).getClass() : target;
		try {
			this.conversion.convert(value, converted);
			return null;
		}
		catch (RuntimeException ex) {
			return new MetadataFinding(key, true, "key '" + key + "' does not convert to " + declared
					+ " as the application declares it" + hint(target) + ": fix the value");
		}
	}

	private static String hint(Class<?> target) {
		if (target.isEnum()) {
			List<String> names = new ArrayList<>();
			for (Object constant : target.getEnumConstants()) {
				names.add(((Enum<?>) constant).name());
			}
			return " (one of " + names + ")";
		}
		return switch (target.getSimpleName()) {
			case "Duration" -> " (a duration such as 10s or 500ms)";
			case "DataSize" -> " (a size such as 10MB)";
			case "Boolean" -> " (true or false)";
			default -> "";
		};
	}

	private static boolean simple(Class<?> target) {
		return target.isEnum() || target.getName().startsWith("java.") || target.getName().startsWith("org.springframework.");
	}

	private @Nullable Class<?> load(String type) {
		try {
			return Class.forName(type, false, TypeChecks.class.getClassLoader());
		}
		catch (ClassNotFoundException | LinkageError ex) {
			ClassLoader loader = applicationLoader();
			if (loader == null) {
				return null;
			}
			try {
				return Class.forName(type, false, loader);
			}
			catch (ClassNotFoundException | LinkageError notThere) {
				return null;
			}
		}
	}

	/** The application's classes and libraries, copied out of its jar once, for its enum types. */
	private @Nullable ClassLoader applicationLoader() {
		if (this.applicationLoader != null || this.jar == null) {
			return this.applicationLoader;
		}
		try (ZipFile zip = new ZipFile(this.jar.toFile())) {
			Path dir = Files.createTempDirectory("zk-spring-cli-app");
			dir.toFile().deleteOnExit();
			List<URL> urls = new ArrayList<>();
			urls.add(this.jar.toUri().toURL());
			Path classes = dir.resolve("classes");
			for (ZipEntry entry : Collections.list(zip.entries())) {
				String name = entry.getName();
				if (entry.isDirectory()) {
					continue;
				}
				if (name.startsWith("BOOT-INF/classes/")) {
					copy(zip, entry, classes.resolve(name.substring("BOOT-INF/classes/".length())));
				}
				else if (name.startsWith("BOOT-INF/lib/") && name.endsWith(".jar")) {
					Path lib = dir.resolve(name.substring("BOOT-INF/lib/".length()));
					copy(zip, entry, lib);
					urls.add(lib.toUri().toURL());
				}
			}
			urls.add(1, classes.toUri().toURL());
			this.applicationLoader = new URLClassLoader(urls.toArray(URL[]::new), TypeChecks.class.getClassLoader());
		}
		catch (IOException ex) {
			return null;
		}
		return this.applicationLoader;
	}

	private static void copy(ZipFile zip, ZipEntry entry, Path target) throws IOException {
		if (target.normalize().toString().contains("..") || !target.normalize().equals(target)) {
			// an entry naming a path outside the copy: not something a build writes, so left out
			return;
		}
		Files.createDirectories(target.getParent());
		try (InputStream in = zip.getInputStream(entry)) {
			Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
		}
	}

}
