package dev.zkspring.publish;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.jar.JarInputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import org.jspecify.annotations.Nullable;

/**
 * The class files of an application's jar (Spring Boot's executable jar or war, or a plain jar), read as
 * bytes: nothing is extracted to disk and no class is loaded, so no code of the application or of its
 * libraries runs in the tool, whose process holds ZooKeeper credentials and encryption keys. Classes the
 * jar does not hold are looked up, as bytes too, among the tool's own.
 * <p>
 * Just over 300 lines: indexing the jar and its nested libraries and reading a class's bytes from them
 * share the zip handles and the index built once.
 */
final class JarClasses {

	private static final String[] CLASSES = { "BOOT-INF/classes/", "WEB-INF/classes/" };

	private static final String[] LIBRARIES = { "BOOT-INF/lib/", "WEB-INF/lib/", "WEB-INF/lib-provided/" };

	private static final byte[] MARKER = "ConfigurationProperties".getBytes(StandardCharsets.UTF_8);

	private final @Nullable Path jar;

	private final String where;

	/** The application's own classes (not its libraries'), by binary name. */
	private final Map<String, byte[]> own = new LinkedHashMap<>();

	/** Which nested library holds a class, by binary name. */
	private final Map<String, String> libraryOf = new HashMap<>();

	private final Map<String, Optional<ClassShape>> shapes = new HashMap<>();

	private boolean ownMetadata;

	private JarClasses(@Nullable Path jar, String where) {
		this.jar = jar;
		this.where = where;
	}

	/** No jar: only the tool's own classes (for {@code --against} a metadata file). */
	static JarClasses none(Path source) {
		return new JarClasses(null, source.getFileName().toString());
	}

	/**
	 * Read a jar once: its own classes and the names of its libraries' classes; every
	 * {@code spring-configuration-metadata.json} in it, its libraries' included, goes to {@code metadata}.
	 */
	static JarClasses read(Path jar, MetadataReader metadata) throws IOException {
		JarClasses classes = new JarClasses(jar, jar.getFileName().toString());
		try (ZipFile zip = new ZipFile(jar.toFile())) {
			String prefix = "";
			for (String candidate : CLASSES) {
				if (zip.stream().anyMatch((entry) -> entry.getName().startsWith(candidate))) {
					prefix = candidate;
				}
			}
			for (ZipEntry entry : Collections.list(zip.entries())) {
				String name = entry.getName();
				if (entry.isDirectory()) {
					continue;
				}
				if (name.equals(ConfigMetadata.LOCATION) || name.endsWith("/" + ConfigMetadata.LOCATION)) {
					// Spring Boot 4 moves the application's META-INF out of BOOT-INF/classes, to the jar's root
					classes.ownMetadata |= name.equals(prefix + ConfigMetadata.LOCATION)
							|| name.equals(ConfigMetadata.LOCATION);
					try (InputStream in = zip.getInputStream(entry)) {
						metadata.read(in, jar + "!/" + name);
					}
				}
				else if (library(name)) {
					classes.indexLibrary(zip, entry, metadata);
				}
				else if (name.startsWith(prefix) && name.endsWith(".class")) {
					String binary = binaryName(name.substring(prefix.length()));
					if (binary != null) {
						try (InputStream in = zip.getInputStream(entry)) {
							classes.own.putIfAbsent(binary, in.readAllBytes());
						}
					}
				}
			}
		}
		return classes;
	}

	private void indexLibrary(ZipFile zip, ZipEntry library, MetadataReader metadata) throws IOException {
		try (JarInputStream nested = new JarInputStream(zip.getInputStream(library))) {
			for (ZipEntry inner = nested.getNextEntry(); inner != null; inner = nested.getNextEntry()) {
				String name = inner.getName();
				if (name.equals(ConfigMetadata.LOCATION)) {
					metadata.read(nested, this.jar + "!/" + library.getName() + "!/" + name);
				}
				else if (name.endsWith(".class")) {
					String binary = binaryName(name);
					if (binary != null) {
						this.libraryOf.putIfAbsent(binary, library.getName());
					}
				}
			}
		}
	}

	private static boolean library(String name) {
		for (String prefix : LIBRARIES) {
			if (name.startsWith(prefix) && name.endsWith(".jar")) {
				return true;
			}
		}
		return false;
	}

	/** {@code com/acme/Shop$Owner.class} to {@code com.acme.Shop$Owner}; null for what is not a class of a package. */
	private static @Nullable String binaryName(String path) {
		if (path.startsWith("META-INF/") || path.endsWith("module-info.class") || path.endsWith("package-info.class")) {
			return null;
		}
		return path.substring(0, path.length() - ".class".length()).replace('/', '.');
	}

	/** The jar's name, for messages. */
	String where() {
		return this.where;
	}

	/** Whether the application's own classes come with {@code spring-configuration-metadata.json}. */
	boolean hasOwnMetadata() {
		return this.ownMetadata;
	}

	/**
	 * The prefixes the application's own classes bind, with the type bound there: {@code @ConfigurationProperties}
	 * on a class or on a {@code @Bean} method.
	 */
	Map<String, TypeRef> configurationProperties() {
		Map<String, TypeRef> prefixes = new LinkedHashMap<>();
		this.own.forEach((name, bytes) -> {
			if (contains(bytes, MARKER)) {
				ClassShape shape = shape(name);
				if (shape != null && shape.prefix != null) {
					prefixes.putIfAbsent(shape.prefix, new TypeRef(shape.name, java.util.List.of()));
				}
				if (shape != null) {
					shape.beanMethodPrefixes.forEach(prefixes::putIfAbsent);
				}
			}
		});
		return prefixes;
	}

	/**
	 * The shape of a class of the jar (its own, then its libraries'), else of the tool; {@code null} when none
	 * holds it. A nested class may be named with a dot, as Java source writes it.
	 */
	@Nullable ClassShape shape(String name) {
		return this.shapes.computeIfAbsent(name, (key) -> {
			for (String candidate = key; candidate.indexOf('.') > 0;
					candidate = candidate.substring(0, candidate.lastIndexOf('.')) + "$"
							+ candidate.substring(candidate.lastIndexOf('.') + 1)) {
				byte[] bytes = bytes(candidate);
				if (bytes != null) {
					try {
						return Optional.of(ClassShape.read(bytes));
					}
					catch (RuntimeException ex) {
						// not a class file ASM can read: treated as absent, so what depends on it is not checked
						return Optional.empty();
					}
				}
			}
			return Optional.empty();
		}).orElse(null);
	}

	private byte @Nullable [] bytes(String binary) {
		byte[] own = this.own.get(binary);
		if (own != null) {
			return own;
		}
		String library = this.libraryOf.get(binary);
		if (library != null && this.jar != null) {
			String path = binary.replace('.', '/') + ".class";
			try (ZipFile zip = new ZipFile(this.jar.toFile());
					JarInputStream nested = new JarInputStream(zip.getInputStream(zip.getEntry(library)))) {
				for (ZipEntry inner = nested.getNextEntry(); inner != null; inner = nested.getNextEntry()) {
					if (inner.getName().equals(path)) {
						return nested.readAllBytes();
					}
				}
			}
			catch (IOException | RuntimeException ex) {
				return null;
			}
		}
		try (InputStream in = JarClasses.class.getClassLoader().getResourceAsStream(binary.replace('.', '/') + ".class")) {
			return (in != null) ? in.readAllBytes() : null;
		}
		catch (IOException ex) {
			return null;
		}
	}

	/**
	 * The properties a class binds, as Spring Boot's binder sees them: its constructor's parameters when it
	 * binds through a constructor (a record, {@code @ConstructorBinding}, a single constructor with
	 * parameters), else its setters and its superclasses', and its getters of nested objects, collections and maps.
	 */
	Bean bean(String type) {
		ClassShape shape = shape(type);
		if (shape == null) {
			return new Bean(Map.of(), "its type " + type + " is not in " + this.where);
		}
		Map<String, TypeRef> properties = new LinkedHashMap<>();
		ClassShape.Constructor constructor = shape.bindingConstructor();
		if (constructor != null) {
			for (ClassShape.Parameter parameter : constructor.parameters()) {
				if (parameter.name() == null) {
					return new Bean(Map.of(), "the constructor parameters of " + shape.name + " have no names in its "
							+ "class file (compiled without -parameters)");
				}
				properties.put(uniform(parameter.name()), parameter.type());
			}
			return new Bean(properties, null);
		}
		for (ClassShape current = shape; current != null;) {
			current.setters.forEach((name, propertyType) -> properties.putIfAbsent(uniform(name), propertyType));
			current.getters.forEach((name, propertyType) -> {
				if (nested(propertyType)) {
					properties.putIfAbsent(uniform(name), propertyType);
				}
			});
			String parent = current.superName;
			if (parent == null || parent.startsWith("java.")) {
				break;
			}
			current = shape(parent);
			if (current == null) {
				return new Bean(properties, "its superclass " + parent + " is not in " + this.where);
			}
		}
		return new Bean(properties, null);
	}

	/** Whether a getter without a setter still binds: the binder fills the object, collection or map it returns. */
	private boolean nested(TypeRef type) {
		if (type.isCollection() || type.isMap()) {
			return true;
		}
		if (type.isUnknown() || type.name().startsWith("java.") || !type.name().contains(".")) {
			return false;
		}
		ClassShape shape = shape(type.name());
		return shape != null && !shape.isEnum && !shape.isInterface;
	}

	/** A name as Spring compares names: lower case, letters and digits only. */
	static String uniform(String name) {
		StringBuilder uniform = new StringBuilder(name.length());
		name.chars()
			.filter(Character::isLetterOrDigit)
			.forEach((c) -> uniform.append(Character.toLowerCase((char) c)));
		return uniform.toString().toLowerCase(Locale.ROOT);
	}

	private static boolean contains(byte[] bytes, byte[] marker) {
		outer: for (int i = 0; i <= bytes.length - marker.length; i++) {
			for (int j = 0; j < marker.length; j++) {
				if (bytes[i + j] != marker[j]) {
					continue outer;
				}
			}
			return true;
		}
		return false;
	}

	/**
	 * The properties of a bound class.
	 * @param properties the property types by {@link #uniform uniform} name
	 * @param unknown why a key not listed may still be bound (a part the tool cannot read), or null when the
	 * list is complete
	 */
	record Bean(Map<String, TypeRef> properties, @Nullable String unknown) {
	}

	/** Reads one {@code spring-configuration-metadata.json}. */
	@FunctionalInterface
	interface MetadataReader {

		void read(InputStream in, String where) throws IOException;

	}

}
