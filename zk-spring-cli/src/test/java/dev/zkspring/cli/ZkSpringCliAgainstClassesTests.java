package dev.zkspring.cli;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --against} a jar without {@code spring-configuration-metadata.json}: keys and types are derived from
 * the application's {@code @ConfigurationProperties} class files, without loading them; what cannot be derived
 * is refused as unchecked (exit 6), never passed.
 */
class ZkSpringCliAgainstClassesTests {

	@RegisterExtension
	static final CliServer zk = CliServer.server().cleaning("/config", "/config.meta");

	@TempDir
	Path dir;

	/** Set by the application enum's static initialiser: it must never run in the tool. */
	private final String marker = "zkspring.test.enum-ran." + UUID.randomUUID();

	@AfterEach
	void cleanUp() throws Exception {
		System.clearProperty(this.marker);
	}

	@ParameterizedTest
	@ValueSource(strings = { "BOOT-INF/classes/", "" })
	void eachDerivedTypeRefusesAValueThatDoesNotConvertNamingTheKey(String layout) throws Exception {
		Path jar = AppJars.in(this.dir).compile(layout, sources(), "-parameters").write("app.jar");
		refused(jar, "{\"acme\":{\"shop\":{\"limit\":\"five\"}}}", "key 'acme.shop.limit' does not convert to int");
		refused(jar, "{\"acme\":{\"shop\":{\"big\":\"1.5\"}}}", "key 'acme.shop.big' does not convert to java.lang.Long");
		refused(jar, "{\"acme\":{\"shop\":{\"enabled\":\"perhaps\"}}}", "key 'acme.shop.enabled' does not convert to "
				+ "java.lang.Boolean");
		refused(jar, "{\"acme\":{\"shop\":{\"timeout\":\"ten seconds\"}}}", "key 'acme.shop.timeout' does not convert "
				+ "to java.time.Duration");
		refused(jar, "{\"acme\":{\"shop\":{\"max-upload\":\"huge\"}}}", "key 'acme.shop.max-upload' does not convert to "
				+ "org.springframework.util.unit.DataSize");
		refused(jar, "{\"acme\":{\"shop\":{\"mode\":\"HALF_OPEN\"}}}", "key 'acme.shop.mode' does not convert to "
				+ "acme.Mode as the application declares it (one of [OPEN, CLOSED_FOR_MAINTENANCE])");
		refused(jar, "{\"acme\":{\"shop\":{\"ports\":[80,\"http\"]}}}", "key 'acme.shop.ports[1]' does not convert");
		refused(jar, "{\"acme\":{\"shop\":{\"ports\":\"80,http\"}}}", "key 'acme.shop.ports' does not convert");
		refused(jar, "{\"acme\":{\"shop\":{\"weights\":{\"a\":\"heavy\"}}}}", "key 'acme.shop.weights.a' does not convert");
		refused(jar, "{\"acme\":{\"shop\":{\"owner\":{\"age\":\"old\"}}}}", "key 'acme.shop.owner.age' does not convert");
		refused(jar, "{\"acme\":{\"shop\":{\"owners\":[{\"age\":\"old\"}]}}}", "key 'acme.shop.owners[0].age' does not "
				+ "convert");
		refused(jar, "{\"acme\":{\"shop\":{\"by-name\":{\"x\":{\"age\":\"old\"}}}}}", "key 'acme.shop.by-name.x.age' "
				+ "does not convert");
		refused(jar, "{\"acme\":{\"pool\":{\"size\":\"big\"}}}", "key 'acme.pool.size' does not convert to int");
		refused(jar, "{\"acme\":{\"pool\":{\"max-wait\":\"soon\"}}}", "key 'acme.pool.max-wait' does not convert");
		refused(jar, "{\"acme\":{\"retry\":{\"attempts\":\"many\"}}}", "key 'acme.retry.attempts' does not convert");
		refused(jar, "{\"acme\":{\"multi\":{\"max\":\"lots\"}}}", "key 'acme.multi.max' does not convert to long");
		refused(jar, "{\"acme\":{\"sub\":{\"port\":\"http\"}}}", "key 'acme.sub.port' does not convert to int");
		refused(jar, "{\"acme\":{\"client\":{\"connect-timeout\":\"soon\"}}}", "key 'acme.client.connect-timeout' does "
				+ "not convert to java.time.Duration");
		assertThat(zk.client().checkExists().forPath("/config/orders")).isNull();
		assertThat(System.getProperty(this.marker)).as("the application enum's static initialiser ran").isNull();
	}

	@ParameterizedTest
	@ValueSource(strings = { "BOOT-INF/classes/", "" })
	void valuesThatConvertToTheDerivedTypesArePublished(String layout) throws Exception {
		Path jar = AppJars.in(this.dir).compile(layout, sources(), "-parameters").write("app.jar");
		CliRun run = put(jar, "{\"acme\":{\"shop\":{\"limit\":5,\"big\":9000000000,\"enabled\":true,\"timeout\":\"10s\","
				+ "\"maxUpload\":\"10MB\",\"mode\":\"closed-for-maintenance\",\"ports\":[80,443],\"weights\":{\"a\":1},"
				+ "\"owner\":{\"name\":\"x\",\"age\":3},\"owners\":[{\"age\":4}],\"by-name\":{\"x\":{\"age\":5}},"
				+ "\"greeting\":\"hi\"},\"pool\":{\"size\":3,\"idle\":\"1m\",\"max-wait\":\"2s\"},"
				+ "\"retry\":{\"attempts\":2,\"backoff\":\"1s\"},\"multi\":{\"max\":7},\"sub\":{\"port\":8080,"
				+ "\"name\":\"s\"},\"client\":{\"connect-timeout\":\"3s\"}}}", "--strict");
		assertThat(run.status()).as(run.err()).isZero();
		assertThat(run.err()).doesNotContain("warning").doesNotContain("unchecked");
		assertThat(System.getProperty(this.marker)).as("the application enum's static initialiser ran").isNull();
	}

	@Test
	void aKeyNoClassOrMetadataDeclaresIsRefusedAsUncheckedNeverPassed() throws Exception {
		Path jar = AppJars.in(this.dir).compile("BOOT-INF/classes/", sources(), "-parameters").write("app.jar");
		CliRun run = put(jar, "{\"acme\":{\"shop\":{\"limit\":5}},\"other\":{\"limit\":\"five\"}}");
		assertThat(run.status()).as(run.err()).isEqualTo(Exits.UNCHECKED);
		assertThat(run.err()).contains("unchecked: context 'orders': key 'other.limit' cannot be checked: no configuration "
				+ "metadata and no @ConfigurationProperties class in app.jar declares it")
			.contains("build the application with spring-boot-configuration-processor")
			.contains("zk-spring: context 'orders': --against " + jar + " cannot check 1 key(s), the first 'other.limit'")
			.contains("nothing was written")
			.doesNotContain("five");
		assertThat(put(jar, "{\"other\":{\"limit\":5}}", "--strict").status()).isEqualTo(Exits.UNCHECKED);
		assertThat(zk.client().checkExists().forPath("/config/orders")).isNull();
		assertThat(CliRun.run(zk.connectString(), "", "config", "put", "--help").out()).contains("6  --against cannot "
				+ "check a key");
	}

	@Test
	void aKeyTheClassDoesNotBindIsAWarningAsWithMetadata() throws Exception {
		Path jar = AppJars.in(this.dir).compile("BOOT-INF/classes/", sources(), "-parameters").write("app.jar");
		CliRun run = put(jar, "{\"acme\":{\"shop\":{\"limt\":5}}}");
		assertThat(run.status()).as(run.err()).isZero();
		assertThat(run.err()).contains("warning: context 'orders': key 'acme.shop.limt' is not declared: "
				+ "acme.ShopProperties binds no such property; check its spelling");
		assertThat(put(jar, "{\"acme\":{\"shop\":{\"limt\":6}}}", "--strict").status()).isEqualTo(Exits.REFUSED);
	}

	@Test
	void constructorParametersWithoutNamesAreUncheckedAndTheLocalVariableTableServesAsNames() throws Exception {
		Map<String, String> retry = Map.of("acme.RetryProperties", sources().get("acme.RetryProperties"));
		Path bare = AppJars.in(this.dir).compile("BOOT-INF/classes/", retry, "-g:none").write("bare.jar");
		CliRun run = put(bare, "{\"acme\":{\"retry\":{\"attempts\":\"many\"}}}");
		assertThat(run.status()).as(run.err()).isEqualTo(Exits.UNCHECKED);
		assertThat(run.err()).contains("key 'acme.retry.attempts' cannot be checked: the constructor parameters of "
				+ "acme.RetryProperties have no names in its class file (compiled without -parameters)");
		Path debug = AppJars.in(this.dir).compile("BOOT-INF/classes/", retry, "-g").write("debug.jar");
		refused(debug, "{\"acme\":{\"retry\":{\"attempts\":\"many\"}}}", "key 'acme.retry.attempts' does not convert");
	}

	@Test
	void aTypeOnlyTheApplicationConvertsIsUnchecked() throws Exception {
		Map<String, String> sources = new LinkedHashMap<>();
		sources.put("acme.Money", "package acme; public final class Money { private final long cents; "
				+ "public Money(long cents) { this.cents = cents; } }");
		sources.put("acme.PriceProperties", """
				package acme;
				@org.springframework.boot.context.properties.ConfigurationProperties("acme.price")
				public class PriceProperties {
					private Money max;
					public Money getMax() { return this.max; }
					public void setMax(Money max) { this.max = max; }
				}
				""");
		Path jar = AppJars.in(this.dir).compile("BOOT-INF/classes/", sources, "-parameters").write("app.jar");
		CliRun run = put(jar, "{\"acme\":{\"price\":{\"max\":\"10 EUR\"}}}");
		assertThat(run.status()).as(run.err()).isEqualTo(Exits.UNCHECKED);
		assertThat(run.err()).contains("key 'acme.price.max' cannot be checked: its type acme.Money");
	}

	@Test
	void librariesMetadataInsideTheJarIsUsedBesideTheDerivedClasses() throws Exception {
		Path jar = AppJars.in(this.dir)
			.compile("BOOT-INF/classes/", sources(), "-parameters")
			.entry("BOOT-INF/lib/library.jar", AppJars.library(Map.of("META-INF/spring-configuration-metadata.json",
					"{\"properties\":[{\"name\":\"lib.port\",\"type\":\"java.lang.Integer\"}]}")))
			.write("app.jar");
		refused(jar, "{\"lib\":{\"port\":\"x\"}}", "key 'lib.port' does not convert to java.lang.Integer");
		refused(jar, "{\"acme\":{\"shop\":{\"limit\":\"x\"}}}", "key 'acme.shop.limit' does not convert to int");
		assertThat(put(jar, "{\"lib\":{\"port\":1},\"acme\":{\"shop\":{\"limit\":1}}}", "--strict").status()).isZero();
	}

	@ParameterizedTest
	@ValueSource(strings = { "BOOT-INF/classes/META-INF/", "META-INF/" })
	void anEnumFromTheJarIsJudgedByItsClassFileWithoutRunningItsStaticInitialiser(String metaInf) throws Exception {
		// the application's own metadata names the enum type; the enum is only in the jar. Spring Boot 4's
		// repackaging moves the metadata to the jar's root META-INF
		Path jar = AppJars.in(this.dir)
			.compile("BOOT-INF/classes/", Map.of("acme.Mode", sources().get("acme.Mode")), "-parameters")
			.entry(metaInf + "spring-configuration-metadata.json",
					"{\"properties\":[{\"name\":\"acme.mode\",\"type\":\"acme.Mode\"},"
							+ "{\"name\":\"acme.modes\",\"type\":\"java.util.List<acme.Mode>\"}]}")
			.write("app.jar");
		refused(jar, "{\"acme\":{\"mode\":\"HALF_OPEN\"}}", "key 'acme.mode' does not convert to acme.Mode as the "
				+ "application declares it (one of [OPEN, CLOSED_FOR_MAINTENANCE])");
		refused(jar, "{\"acme\":{\"modes\":\"open,half\"}}", "key 'acme.modes' does not convert");
		assertThat(put(jar, "{\"acme\":{\"mode\":\"closed-for-maintenance\",\"modes\":[\"OPEN\",\"open\"]}}").status())
			.isZero();
		CliRun undeclared = put(jar, "{\"acme\":{\"greeting\":\"hi\"}}");
		assertThat(undeclared.status()).as("the application's own metadata is complete: a key it does not declare "
				+ "is read with @Value").isZero();
		assertThat(undeclared.err()).contains("warning: context 'orders': key 'acme.greeting' is not declared");
		assertThat(System.getProperty(this.marker)).as("the application enum's static initialiser ran").isNull();
	}

	@Test
	void entriesNamingPathsOutsideTheJarAreNeverWritten() throws Exception {
		Path outside = this.dir.resolve("outside");
		Files.createDirectories(outside);
		Path absoluteClass = outside.resolve("Planted.class").toAbsolutePath();
		Path absoluteLibrary = outside.resolve("planted.jar").toAbsolutePath();
		byte[] library = AppJars.library(Map.of("acme/Other.class", "not a class"));
		Path jar = AppJars.in(this.dir)
			.compile("BOOT-INF/classes/", Map.of("acme.Mode", sources().get("acme.Mode")), "-parameters")
			.entry("BOOT-INF/classes/META-INF/spring-configuration-metadata.json",
					"{\"properties\":[{\"name\":\"acme.mode\",\"type\":\"acme.Mode\"}]}")
			.entry("BOOT-INF/classes/" + absoluteClass, "planted")
			.entry("BOOT-INF/classes/../../../" + outside.getFileName() + "/escaped.class", "planted")
			.entry("BOOT-INF/lib/" + absoluteLibrary, library)
			.write("crafted.jar");
		refused(jar, "{\"acme\":{\"mode\":\"HALF_OPEN\"}}", "key 'acme.mode' does not convert to acme.Mode");
		assertThat(absoluteClass).doesNotExist();
		assertThat(absoluteLibrary).doesNotExist();
		try (var files = Files.list(outside)) {
			assertThat(files).isEmpty();
		}
	}

	/** An application's configuration classes, as its developers write them. */
	private Map<String, String> sources() {
		Map<String, String> sources = new LinkedHashMap<>();
		sources.put("acme.Mode", """
				package acme;
				public enum Mode {
					OPEN, CLOSED_FOR_MAINTENANCE;
					static { System.setProperty("%s", "ran"); }
				}
				""".formatted(this.marker));
		sources.put("acme.ShopProperties", """
				package acme;
				import java.time.Duration;
				import java.util.*;
				import org.springframework.boot.context.properties.ConfigurationProperties;
				import org.springframework.util.unit.DataSize;
				@ConfigurationProperties(prefix = "acme.shop")
				public class ShopProperties {
					private int limit;
					private Long big;
					private Boolean enabled;
					private Duration timeout;
					private DataSize maxUpload;
					private Mode mode;
					private List<Integer> ports = new ArrayList<>();
					private final Map<String, Integer> weights = new HashMap<>();
					private final Owner owner = new Owner();
					private List<Owner> owners = new ArrayList<>();
					private final Map<String, Owner> byName = new HashMap<>();
					private String greeting;
					public int getLimit() { return limit; }
					public void setLimit(int limit) { this.limit = limit; }
					public Long getBig() { return big; }
					public void setBig(Long big) { this.big = big; }
					public Boolean getEnabled() { return enabled; }
					public void setEnabled(Boolean enabled) { this.enabled = enabled; }
					public Duration getTimeout() { return timeout; }
					public void setTimeout(Duration timeout) { this.timeout = timeout; }
					public DataSize getMaxUpload() { return maxUpload; }
					public void setMaxUpload(DataSize maxUpload) { this.maxUpload = maxUpload; }
					public Mode getMode() { return mode; }
					public void setMode(Mode mode) { this.mode = mode; }
					public List<Integer> getPorts() { return ports; }
					public void setPorts(List<Integer> ports) { this.ports = ports; }
					public Map<String, Integer> getWeights() { return weights; }
					public Owner getOwner() { return owner; }
					public List<Owner> getOwners() { return owners; }
					public void setOwners(List<Owner> owners) { this.owners = owners; }
					public Map<String, Owner> getByName() { return byName; }
					public String getGreeting() { return greeting; }
					public void setGreeting(String greeting) { this.greeting = greeting; }
					public static class Owner {
						private String name;
						private int age;
						public String getName() { return name; }
						public void setName(String name) { this.name = name; }
						public int getAge() { return age; }
						public void setAge(int age) { this.age = age; }
					}
				}
				""");
		sources.put("acme.PoolProperties", """
				package acme;
				import java.time.Duration;
				import org.springframework.boot.context.properties.ConfigurationProperties;
				import org.springframework.boot.context.properties.bind.Name;
				@ConfigurationProperties("acme.pool")
				public record PoolProperties(int size, Duration idle, @Name("max-wait") Duration longest) {
				}
				""");
		sources.put("acme.RetryProperties", """
				package acme;
				import java.time.Duration;
				import org.springframework.boot.context.properties.ConfigurationProperties;
				@ConfigurationProperties("acme.retry")
				public class RetryProperties {
					private final int attempts;
					private final Duration backoff;
					public RetryProperties(int attempts, Duration backoff) {
						int unused = attempts * 2;
						this.attempts = attempts;
						this.backoff = backoff;
					}
					public int getAttempts() { return attempts; }
					public Duration getBackoff() { return backoff; }
				}
				""");
		sources.put("acme.MultiProperties", """
				package acme;
				import org.springframework.boot.context.properties.ConfigurationProperties;
				import org.springframework.boot.context.properties.bind.ConstructorBinding;
				@ConfigurationProperties("acme.multi")
				public class MultiProperties {
					private final long max;
					public MultiProperties() { this(1); }
					@ConstructorBinding
					public MultiProperties(long max) { this.max = max; }
					public long getMax() { return max; }
				}
				""");
		sources.put("acme.BaseProperties", """
				package acme;
				public abstract class BaseProperties {
					private int port;
					public int getPort() { return port; }
					public void setPort(int port) { this.port = port; }
				}
				""");
		sources.put("acme.SubProperties", """
				package acme;
				@org.springframework.boot.context.properties.ConfigurationProperties("acme.sub")
				public class SubProperties extends BaseProperties {
					private String name;
					public String getName() { return name; }
					public void setName(String name) { this.name = name; }
				}
				""");
		sources.put("acme.ClientSettings", """
				package acme;
				public class ClientSettings {
					private java.time.Duration connectTimeout;
					public void setConnectTimeout(java.time.Duration connectTimeout) { this.connectTimeout = connectTimeout; }
				}
				""");
		sources.put("acme.ClientConfiguration", """
				package acme;
				import org.springframework.boot.context.properties.ConfigurationProperties;
				import org.springframework.context.annotation.Bean;
				import org.springframework.context.annotation.Configuration;
				@Configuration(proxyBeanMethods = false)
				public class ClientConfiguration {
					@Bean
					@ConfigurationProperties("acme.client")
					ClientSettings clientSettings() { return new ClientSettings(); }
				}
				""");
		return sources;
	}

	private void refused(Path against, String document, String message) throws Exception {
		CliRun run = put(against, document);
		assertThat(run.status()).as(run.err()).isEqualTo(Exits.REFUSED);
		assertThat(run.err()).contains(message).contains("nothing was written");
	}

	private CliRun put(Path against, String document, String... more) throws Exception {
		Path file = Files.createTempFile(this.dir, "doc", ".json");
		Files.writeString(file, document, StandardCharsets.UTF_8);
		String[] args = new String[6 + more.length];
		String[] base = { "config", "put", "orders", file.toString(), "--against", against.toString() };
		System.arraycopy(base, 0, args, 0, 6);
		System.arraycopy(more, 0, args, 6, more.length);
		return CliRun.runWithEnv(Map.of("ZK_CONNECT", zk.connectString()), "", args);
	}

}
