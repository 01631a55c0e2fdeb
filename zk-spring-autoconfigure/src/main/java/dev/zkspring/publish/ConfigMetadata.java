package dev.zkspring.publish;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarInputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.context.properties.source.ConfigurationPropertyName;

/**
 * The keys and types an application declares ({@code spring-configuration-metadata.json}, from the
 * application's jar, its nested libraries, or one file), so a document can be checked before it is
 * published: an undeclared key is a warning, a value that does not convert to the declared type is an
 * error. Values are converted with Spring Boot's own conversion service, as the application will.
 */
public final class ConfigMetadata {

	static final String LOCATION = "META-INF/spring-configuration-metadata.json";

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final Map<ConfigurationPropertyName, String> types = new HashMap<>();

	private final TypeChecks checks;

	private ConfigMetadata(TypeChecks checks) {
		this.checks = checks;
	}

	/**
	 * Read the metadata of an application: its jar (Spring Boot's executable jar or a plain one) or one
	 * {@code spring-configuration-metadata.json} file.
	 * @throws PublishException ({@code NOT_FOUND}) naming the file when it cannot be read or holds no metadata
	 */
	public static ConfigMetadata load(Path source) {
		if (!Files.isRegularFile(source)) {
			throw new PublishException(PublishException.Reason.NOT_FOUND, "--against " + source
					+ ": no such file; name the application's jar or a spring-configuration-metadata.json");
		}
		ConfigMetadata metadata = new ConfigMetadata(new TypeChecks(source));
		try {
			if (source.getFileName().toString().endsWith(".json")) {
				try (InputStream in = Files.newInputStream(source)) {
					metadata.read(in, source.toString());
				}
			}
			else {
				metadata.readJar(source);
			}
		}
		catch (IOException ex) {
			throw new PublishException(PublishException.Reason.NOT_FOUND, "--against " + source + " cannot be read ("
					+ ex.getClass().getSimpleName() + "): name the application's jar or its metadata file");
		}
		if (metadata.types.isEmpty()) {
			throw new PublishException(PublishException.Reason.NOT_FOUND, "--against " + source + " declares no "
					+ "properties (no " + LOCATION + " in it): build the application with "
					+ "spring-boot-configuration-processor");
		}
		return metadata;
	}

	private void readJar(Path jar) throws IOException {
		try (ZipFile zip = new ZipFile(jar.toFile())) {
			for (ZipEntry entry : java.util.Collections.list(zip.entries())) {
				String name = entry.getName();
				if (name.equals(LOCATION) || name.endsWith("/" + LOCATION)) {
					try (InputStream in = zip.getInputStream(entry)) {
						read(in, jar + "!/" + name);
					}
				}
				else if (name.endsWith(".jar")) {
					try (JarInputStream nested = new JarInputStream(zip.getInputStream(entry))) {
						for (ZipEntry inner = nested.getNextEntry(); inner != null; inner = nested.getNextEntry()) {
							if (inner.getName().equals(LOCATION)) {
								read(nested, jar + "!/" + name + "!/" + LOCATION);
							}
						}
					}
				}
			}
		}
	}

	private void read(InputStream in, String where) {
		JsonNode root;
		try {
			root = JSON.readTree(in.readAllBytes());
		}
		catch (JacksonException | IOException ex) {
			throw new PublishException(PublishException.Reason.NOT_FOUND, where + " is not valid metadata JSON");
		}
		JsonNode properties = root.path("properties");
		for (int i = 0; i < properties.size(); i++) {
			JsonNode property = properties.get(i);
			String name = property.path("name").asString("");
			if (ConfigurationPropertyName.isValid(name)) {
				this.types.putIfAbsent(ConfigurationPropertyName.of(name), property.path("type").asString(""));
			}
		}
	}

	/** The number of properties declared. */
	public int size() {
		return this.types.size();
	}

	/**
	 * Check a flat document.
	 * @return one finding per undeclared key or value that does not convert, in key order
	 */
	public List<MetadataFinding> check(Map<String, String> document) {
		List<MetadataFinding> findings = new ArrayList<>();
		new java.util.TreeMap<>(document).forEach((key, value) -> {
			MetadataFinding finding = check(key, value);
			if (finding != null) {
				findings.add(finding);
			}
		});
		return findings;
	}

	private @Nullable MetadataFinding check(String key, String value) {
		ConfigurationPropertyName name = ConfigurationPropertyName.adapt(key.endsWith("[]")
				? key.substring(0, key.length() - 2) : key, '.');
		if (name.isEmpty()) {
			return undeclared(key);
		}
		String type = this.types.get(name);
		if (type != null) {
			return this.checks.check(key, value, type, false);
		}
		for (ConfigurationPropertyName parent = name.getParent(); !parent.isEmpty(); parent = parent.getParent()) {
			String parentType = this.types.get(parent);
			if (parentType != null) {
				boolean direct = parent.getNumberOfElements() == name.getNumberOfElements() - 1;
				return direct ? this.checks.check(key, value, parentType, true) : null;
			}
		}
		return undeclared(key);
	}

	private static MetadataFinding undeclared(String key) {
		return new MetadataFinding(key, false, "key '" + key + "' is not declared in the application's configuration "
				+ "metadata: check its spelling (a key read with @Value is not declared there)");
	}

}
