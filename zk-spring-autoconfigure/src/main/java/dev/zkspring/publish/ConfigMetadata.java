package dev.zkspring.publish;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.context.properties.source.ConfigurationPropertyName;

/**
 * The keys and types an application declares, so a document can be checked before it is published: from
 * {@code spring-configuration-metadata.json} (the application's jar, its nested libraries, or one file) and,
 * where the application's own classes come without it, from its {@code @ConfigurationProperties} classes, read
 * from their class files as the configuration processor would read their sources. A value that does not
 * convert to the declared type is an error; a key the application's metadata does not declare is a warning;
 * a key the check cannot judge (no metadata or class declares it, or its type cannot be read) is reported as
 * such, never as checked. Values are converted with Spring Boot's own conversion service, as the application
 * will; nothing of the application is loaded or run.
 */
public final class ConfigMetadata {

	static final String LOCATION = "META-INF/spring-configuration-metadata.json";

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final String ADD_METADATA = "; build the application with spring-boot-configuration-processor "
			+ "(it writes " + LOCATION + " into the jar), or publish without --against";

	private final Map<ConfigurationPropertyName, TypeRef> types = new HashMap<>();

	private JarClasses classes;

	private TypeChecks checks;

	/** Whether a key no metadata declares is only undeclared (the application's own metadata is complete). */
	private boolean authoritative;

	private ConfigMetadata(JarClasses classes) {
		this.classes = classes;
		this.checks = new TypeChecks(classes);
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
		ConfigMetadata metadata = new ConfigMetadata(JarClasses.none(source));
		try {
			if (source.getFileName().toString().endsWith(".json")) {
				try (InputStream in = Files.newInputStream(source)) {
					metadata.read(in, source.toString());
				}
				metadata.authoritative = true;
				if (metadata.types.isEmpty()) {
					throw new PublishException(PublishException.Reason.NOT_FOUND, "--against " + source
							+ " declares no properties: name the " + LOCATION + " the configuration processor wrote");
				}
			}
			else {
				metadata.classes = JarClasses.read(source, metadata::read);
				metadata.checks = new TypeChecks(metadata.classes);
				metadata.authoritative = metadata.classes.hasOwnMetadata();
				if (!metadata.authoritative) {
					metadata.classes.configurationProperties()
						.forEach((prefix, type) -> metadata.types.putIfAbsent(ConfigurationPropertyName.adapt(prefix,
								'.'), type));
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			if (ex instanceof PublishException publish) {
				throw publish;
			}
			throw new PublishException(PublishException.Reason.NOT_FOUND, "--against " + source + " cannot be read ("
					+ ex.getClass().getSimpleName() + "): name the application's jar or its metadata file");
		}
		return metadata;
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
				this.types.putIfAbsent(ConfigurationPropertyName.of(name),
						TypeRef.parse(property.path("type").asString("java.lang.Object")));
			}
		}
	}

	/** The number of properties and {@code @ConfigurationProperties} prefixes declared. */
	public int size() {
		return this.types.size();
	}

	/**
	 * Check a flat document.
	 * @return one finding per value that does not convert, undeclared key, or key the check cannot judge, in key
	 * order
	 */
	public List<MetadataFinding> check(Map<String, String> document) {
		List<MetadataFinding> findings = new ArrayList<>();
		new TreeMap<>(document).forEach((key, value) -> {
			MetadataFinding finding = check(key, value);
			if (finding != null) {
				findings.add((finding.unchecked()) ? new MetadataFinding(key, finding.kind(),
						finding.message() + ADD_METADATA) : finding);
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
		for (int length = name.getNumberOfElements(); length > 0; length--) {
			TypeRef type = this.types.get(name.chop(length));
			if (type != null) {
				return below(key, value, name, length, type);
			}
		}
		if (this.authoritative) {
			return undeclared(key);
		}
		return new MetadataFinding(key, MetadataFinding.Kind.UNCHECKED, "key '" + key + "' cannot be checked: no "
				+ "configuration metadata and no @ConfigurationProperties class in " + this.classes.where()
				+ " declares it (a key read with @Value is declared nowhere)");
	}

	/** Follow a key from a declared name down its remaining elements: list indexes, map keys, nested properties. */
	private @Nullable MetadataFinding below(String key, String value, ConfigurationPropertyName name, int from,
			TypeRef declared) {
		TypeRef type = declared;
		for (int i = from; i < name.getNumberOfElements(); i++) {
			if (type.isUnknown()) {
				return TypeChecks.unjudged(key, type, "the type of '" + name.chop(i) + "' is a type variable");
			}
			if (type.isCollection()) {
				if (!name.isNumericIndex(i)) {
					return undeclared(key);
				}
				type = type.element();
			}
			else if (type.isMap()) {
				type = type.mapValue();
				if (this.checks.scalar(type)) {
					return this.checks.check(key, value, type);
				}
			}
			else if (this.checks.scalar(type)) {
				return undeclared(key);
			}
			else {
				JarClasses.Bean bean = this.classes.bean(type.name());
				TypeRef property = bean.properties().get(name.getElement(i, ConfigurationPropertyName.Form.UNIFORM));
				if (property == null) {
					if (bean.unknown() != null) {
						return TypeChecks.unjudged(key, type, bean.unknown());
					}
					return this.authoritative ? undeclared(key) : new MetadataFinding(key,
							MetadataFinding.Kind.UNDECLARED, "key '" + key + "' is not declared: " + type + " binds no "
									+ "such property; check its spelling");
				}
				type = property;
			}
		}
		if (!type.isCollection() && !type.isMap() && !type.isUnknown() && !this.checks.scalar(type)) {
			return value.isEmpty() ? null : TypeChecks.unjudged(key, type, "its type " + type + " is bound from nested "
					+ "keys or converted by code of the application, which the tool does not run");
		}
		return this.checks.check(key, value, type);
	}

	private static MetadataFinding undeclared(String key) {
		return new MetadataFinding(key, MetadataFinding.Kind.UNDECLARED, "key '" + key + "' is not declared in the "
				+ "application's configuration metadata: check its spelling (a key read with @Value is not declared "
				+ "there)");
	}

}
