package dev.zkspring.cli;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.util.unit.DataSize;

/**
 * Applications' jars built at test time: sources compiled with {@code javax.tools} against Spring Boot, packed
 * as Spring Boot packs an executable jar ({@code BOOT-INF/classes}, {@code BOOT-INF/lib}) or as a plain jar.
 */
final class AppJars {

	private final Path dir;

	private final Map<String, byte[]> entries = new LinkedHashMap<>();

	private AppJars(Path dir) {
		this.dir = dir;
	}

	static AppJars in(Path dir) {
		return new AppJars(dir);
	}

	/**
	 * Compile sources (class name to source text) and add their classes under {@code prefix}.
	 * @param options javac options, e.g. {@code -parameters} (as Spring Boot's build plugins set it) or {@code -g:none}
	 */
	AppJars compile(String prefix, Map<String, String> sources, String... options) throws IOException {
		Path src = Files.createTempDirectory(this.dir, "src");
		Path out = Files.createTempDirectory(this.dir, "classes");
		List<String> arguments = new ArrayList<>(List.of(options));
		arguments.addAll(List.of("--release", "17", "-proc:none", "-d", out.toString(), "-classpath", classpath()));
		for (Map.Entry<String, String> source : sources.entrySet()) {
			Path file = src.resolve(source.getKey().replace('.', '/') + ".java");
			Files.createDirectories(file.getParent());
			Files.writeString(file, source.getValue());
			arguments.add(file.toString());
		}
		JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
		StringWriter errors = new StringWriter();
		int status = javac.run(null, null, new java.io.PrintStream(new java.io.OutputStream() {
			@Override
			public void write(int b) {
				errors.write(b);
			}
		}, true, StandardCharsets.UTF_8), arguments.toArray(String[]::new));
		if (status != 0) {
			throw new IllegalStateException("javac failed: " + errors);
		}
		try (Stream<Path> files = Files.walk(out)) {
			for (Path file : files.filter(Files::isRegularFile).toList()) {
				this.entries.put(prefix + out.relativize(file).toString().replace(File.separatorChar, '/'),
						Files.readAllBytes(file));
			}
		}
		return this;
	}

	/** Add one entry as it is: a name a build would never write is how a crafted jar looks. */
	AppJars entry(String name, byte[] content) {
		this.entries.put(name, content);
		return this;
	}

	AppJars entry(String name, String content) {
		return entry(name, content.getBytes(StandardCharsets.UTF_8));
	}

	/** A library jar, as {@code BOOT-INF/lib/NAME} holds it, with the given entries. */
	static byte[] library(Map<String, String> entries) throws IOException {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		try (JarOutputStream out = new JarOutputStream(bytes)) {
			for (Map.Entry<String, String> entry : entries.entrySet()) {
				out.putNextEntry(new JarEntry(entry.getKey()));
				out.write(entry.getValue().getBytes(StandardCharsets.UTF_8));
			}
		}
		return bytes.toByteArray();
	}

	Path write(String name) throws IOException {
		Path jar = this.dir.resolve(name);
		try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
			for (Map.Entry<String, byte[]> entry : this.entries.entrySet()) {
				out.putNextEntry(new JarEntry(entry.getKey()));
				out.write(entry.getValue());
			}
		}
		return jar;
	}

	private static String classpath() {
		List<String> jars = new ArrayList<>();
		for (Class<?> type : new Class<?>[] { ConfigurationProperties.class, Bean.class, DataSize.class }) {
			try {
				jars.add(Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
			}
			catch (URISyntaxException ex) {
				throw new IllegalStateException(ex);
			}
		}
		return String.join(File.pathSeparator, jars);
	}

}
