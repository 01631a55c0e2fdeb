package dev.zkspring.benchmarks;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * A class loader holding the whole benchmark classpath (Spring, Curator, ZooKeeper client, this
 * module's classes) with one zk-spring-autoconfigure: this build's, or a jar built from an earlier
 * commit. Two of them in one JVM measure two zk-spring versions on one server in one run, each with
 * its own copy of every library, so neither side shares code or state with the other.
 */
final class IsolatedZkSpring implements AutoCloseable {

	private static List<Path> classpath;

	private final URLClassLoader loader;

	private final Class<?> side;

	private IsolatedZkSpring(List<Path> entries) throws Exception {
		URL[] urls = new URL[entries.size()];
		for (int i = 0; i < urls.length; i++) {
			urls[i] = entries.get(i).toUri().toURL();
		}
		this.loader = new URLClassLoader("zk-spring-ab", urls, ClassLoader.getPlatformClassLoader());
		this.side = this.loader.loadClass(AbSide.class.getName());
	}

	/** This build's zk-spring, or the given jar of zk-spring-autoconfigure in its place. */
	static IsolatedZkSpring of(Path autoconfigureJar) throws Exception {
		List<Path> entries = new ArrayList<>(classpath());
		if (autoconfigureJar != null) {
			if (!Files.isRegularFile(autoconfigureJar)) {
				throw new IllegalArgumentException("--lock-ab=" + autoconfigureJar
						+ ": no such jar; build the baseline's zk-spring-autoconfigure first (benchmarks/lock-ab.sh does)");
			}
			entries.replaceAll((entry) -> isAutoconfigure(entry) ? autoconfigureJar : entry);
		}
		return new IsolatedZkSpring(entries);
	}

	/** Open {@code @ZkLock} applications inside this loader; each callable acquires and releases the key once. */
	@SuppressWarnings("unchecked")
	List<Callable<Object>> open(String connectString, int clients, String key) throws Exception {
		return (List<Callable<Object>>) inside("open", connectString, clients, key);
	}

	@Override
	public void close() throws Exception {
		inside("closeAll");
		this.loader.close();
	}

	private Object inside(String method, Object... args) throws Exception {
		Thread thread = Thread.currentThread();
		ClassLoader previous = thread.getContextClassLoader();
		thread.setContextClassLoader(this.loader);
		try {
			Class<?>[] types = (args.length == 0) ? new Class<?>[0]
					: new Class<?>[] { String.class, int.class, String.class };
			return this.side.getMethod(method, types).invoke(null, args);
		}
		catch (InvocationTargetException ex) {
			throw (ex.getCause() instanceof Exception cause) ? cause : ex;
		}
		finally {
			thread.setContextClassLoader(previous);
		}
	}

	private static boolean isAutoconfigure(Path entry) {
		String name = entry.getFileName().toString();
		return name.startsWith("zk-spring-autoconfigure") || entry.toString().contains("zk-spring-autoconfigure" + File.separator);
	}

	/** The JVM's classpath; when it is Spring Boot's executable jar, its nested jars, extracted once. */
	static synchronized List<Path> classpath() throws IOException {
		if (classpath == null) {
			List<Path> entries = new ArrayList<>();
			for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
				Path path = Path.of(entry).toAbsolutePath();
				entries.addAll(isBootJar(path) ? extract(path) : List.of(path));
			}
			if (entries.stream().noneMatch(IsolatedZkSpring::isAutoconfigure)) {
				throw new IllegalStateException("zk-spring-autoconfigure is not on the classpath " + entries);
			}
			classpath = entries;
		}
		return classpath;
	}

	private static boolean isBootJar(Path path) throws IOException {
		if (!path.toString().endsWith(".jar")) {
			return false;
		}
		try (JarFile jar = new JarFile(path.toFile())) {
			return jar.getEntry("BOOT-INF/classes/") != null;
		}
	}

	private static List<Path> extract(Path bootJar) throws IOException {
		Path into = Files.createTempDirectory("zkspring-ab");
		Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteQuietly(into)));
		List<Path> entries = new ArrayList<>(List.of(into.resolve("BOOT-INF/classes")));
		try (JarFile jar = new JarFile(bootJar.toFile())) {
			for (JarEntry entry : jar.stream().toList()) {
				String name = entry.getName();
				if (entry.isDirectory() || !name.startsWith("BOOT-INF/")) {
					continue;
				}
				Path target = into.resolve(name);
				Files.createDirectories(target.getParent());
				try (InputStream in = jar.getInputStream(entry)) {
					Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
				}
				if (name.startsWith("BOOT-INF/lib/") && name.endsWith(".jar")) {
					entries.add(target);
				}
			}
		}
		return entries;
	}

	private static void deleteQuietly(Path dir) {
		try (Stream<Path> paths = Files.walk(dir)) {
			paths.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
		}
		catch (IOException | UncheckedIOException ex) {
			// a temporary directory: the OS cleans it eventually
		}
	}

}
