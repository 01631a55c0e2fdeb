package dev.zkspring.autoconfigure;

import java.io.IOException;
import java.net.URL;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Set;

/**
 * A class path without some libraries, as an application that lacks them has: their classes cannot be loaded and
 * their jars' resources (the auto-configuration imports, {@code spring.factories}) are not found, so Boot sees
 * neither them nor their auto-configurations. Boot's {@code FilteredClassLoader} hides classes only, which a
 * library that brings its own auto-configuration does not survive.
 */
final class HidingClassLoader extends ClassLoader {

	private final Set<String> packages;

	private final Set<String> jars;

	HidingClassLoader(Set<String> packages, Set<String> jars) {
		super(HidingClassLoader.class.getClassLoader());
		this.packages = packages;
		this.jars = jars;
	}

	@Override
	protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
		if (hidden(name)) {
			throw new ClassNotFoundException(name);
		}
		return super.loadClass(name, resolve);
	}

	@Override
	public URL getResource(String name) {
		List<URL> found = visible(name);
		return found.isEmpty() ? null : found.get(0);
	}

	@Override
	public Enumeration<URL> getResources(String name) throws IOException {
		return Collections.enumeration(visible(name));
	}

	private List<URL> visible(String name) {
		if (name.endsWith(".class") && hidden(name.replace('/', '.'))) {
			return List.of();
		}
		try {
			return Collections.list(getParent().getResources(name)).stream().filter((url) -> !inHiddenJar(url)).toList();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private boolean hidden(String className) {
		return this.packages.stream().anyMatch((hidden) -> className.startsWith(hidden + "."));
	}

	private boolean inHiddenJar(URL url) {
		String path = url.getPath();
		int jar = path.indexOf(".jar!");
		if (jar < 0) {
			return false;
		}
		String file = path.substring(path.lastIndexOf('/', jar) + 1);
		return this.jars.stream().anyMatch(file::startsWith);
	}

}
