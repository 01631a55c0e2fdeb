package dev.zkspring.distcheck;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * What verify staged into target/staging-repo is what a public repository would hold: every published
 * module with its POM, jar, sources and Javadoc, the licence in every jar, the module name in each manifest;
 * and a user's application (src/it/orders), built with a fresh local repository that gets dev.zkspring
 * artifacts from the staged repository alone, imports the BOM, runs its tests with the test kit and starts.
 * Third-party artifacts come from the outer build's local repository, used as a release-only remote (a copy
 * of what Maven Central served), so the check runs offline and in seconds.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StagedApplicationIT {

	/** Published jar modules and the Automatic-Module-Name each manifest must carry. */
	static final Map<String, String> JAR_MODULES = Map.of("zk-spring-autoconfigure", "dev.zkspring.autoconfigure",
			"zk-spring-starter", "dev.zkspring.starter", "zk-spring-test", "dev.zkspring.test",
			"zk-spring-test-zookeeper", "dev.zkspring.test.zookeeper", "zk-spring-cli", "dev.zkspring.cli");

	static final List<String> POM_MODULES = List.of("zk-spring-parent", "zk-spring-dependencies");

	/** An external server to start the application against, e.g. the CI's ZooKeeper 3.8 (docs/compatibility.md). */
	static final String EXTERNAL_CONNECT = "ZK_SPRING_COMPAT_CONNECT";

	static Path staging;

	static Path itDir;

	static String version;

	@BeforeAll
	static void staged() {
		assumeThat(System.getProperty("zkspring.stage.skip")).as("-Dzkspring.stage.skip: nothing was staged").isNotEqualTo("true");
		staging = Path.of(System.getProperty("zkspring.staging.repo"));
		itDir = Path.of(System.getProperty("it.dir"));
		version = System.getProperty("project.version");
	}

	@Test
	@Order(1)
	void everyPublishedModuleIsStagedWithPomJarSourcesAndJavadoc() throws IOException {
		for (String module : POM_MODULES) {
			assertThat(latest(module, ".pom")).as(module + " POM").isNotNull();
		}
		for (String module : JAR_MODULES.keySet()) {
			for (String suffix : List.of(".pom", ".jar", "-sources.jar", "-javadoc.jar")) {
				assertThat(latest(module, suffix)).as(module + suffix).isNotNull();
			}
		}
	}

	@Test
	@Order(2)
	void everyStagedJarCarriesTheLicenceAndNotice() throws IOException {
		for (String module : JAR_MODULES.keySet()) {
			for (String suffix : List.of(".jar", "-sources.jar", "-javadoc.jar")) {
				try (JarFile jar = new JarFile(staged(module, suffix).toFile())) {
					assertThat(jar.getEntry("META-INF/LICENSE")).as(module + suffix + " META-INF/LICENSE").isNotNull();
					assertThat(jar.getEntry("META-INF/NOTICE")).as(module + suffix + " META-INF/NOTICE").isNotNull();
				}
			}
		}
	}

	@Test
	@Order(3)
	void everyStagedJarNamesItsAutomaticModule() throws IOException {
		for (Map.Entry<String, String> module : JAR_MODULES.entrySet()) {
			try (JarFile jar = new JarFile(staged(module.getKey(), ".jar").toFile())) {
				assertThat(jar.getManifest().getMainAttributes().getValue("Automatic-Module-Name")).as(module.getKey())
					.isEqualTo(module.getValue());
			}
		}
	}

	@Test
	@Order(4)
	void usersApplicationBuildsFromTheStagedRepositoryAndRunsItsTestsWithTheKit() throws Exception {
		Path app = copyApplication();
		Path settings = writeSettings();
		Path repo = itDir.resolve("repo");
		deleteRecursively(repo);
		Path mvn = Path.of(System.getProperty("maven.home"), "bin", "mvn");
		List<String> command = List.of(mvn.toString(), "-B", "-ntp", "-o", "-Daether.offline.protocols=file", "-s",
				settings.toString(), "-Dmaven.repo.local=" + repo, "-f", app.resolve("pom.xml").toString(), "test",
				"dependency:build-classpath", "-Dmdep.outputFile=" + app.resolve("classpath.txt"));
		Path log = itDir.resolve("orders-build.log");
		Process build = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
		boolean ended = build.waitFor(8, TimeUnit.MINUTES);
		if (!ended) {
			build.destroyForcibly();
		}
		assertThat(ended && build.exitValue() == 0)
			.as("the user's application did not build from the staged repository; %s ends with:%n%s", log, tail(log))
			.isTrue();
		assertThat(Files.readString(log)).contains("Tests run: 3, Failures: 0, Errors: 0");
		assertDevZkspringCameFromStagingOnly(repo);
	}

	@Test
	@Order(5)
	void usersApplicationStartsAndConnects() throws Exception {
		Path app = itDir.resolve("orders");
		String classpath = app.resolve("target/classes") + java.io.File.pathSeparator
				+ Files.readString(app.resolve("classpath.txt")).trim();
		String external = System.getenv(EXTERNAL_CONNECT);
		List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-Duser.home=" + itDir.resolve("home"), "-cp", classpath, "com.example.orders.OrdersApplication"));
		if (external != null && !external.isBlank()) {
			command.add("--zk.connect=" + external);
		}
		else {
			command.addAll(List.of("--zk.embedded.enabled=true", "--zk.embedded.port=0"));
		}
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		try {
			CompletableFuture<String> started = CompletableFuture.supplyAsync(() -> awaitLine(process, "orders started"));
			String line = started.get(Duration.ofMinutes(2).toSeconds(), TimeUnit.SECONDS);
			assertThat(line).contains("greeting=hello", "deducted=1",
					"zookeeper client " + System.getProperty("zookeeper.version"));
		}
		finally {
			process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
		}
	}

	private static String awaitLine(Process process, String prefix) {
		StringBuilder output = new StringBuilder();
		try (BufferedReader reader = new BufferedReader(
				new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
			for (String line = reader.readLine(); line != null; line = reader.readLine()) {
				output.append(line).append('\n');
				if (line.startsWith(prefix)) {
					return line;
				}
			}
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		throw new AssertionError("The application ended without \"" + prefix + "\":\n" + output);
	}

	private static void assertDevZkspringCameFromStagingOnly(Path repo) throws IOException {
		Path group = repo.resolve("dev/zkspring");
		assertThat(group).isDirectory();
		List<Path> origins;
		try (Stream<Path> files = Files.walk(group)) {
			origins = files.filter((file) -> file.getFileName().toString().equals("_remote.repositories")).toList();
		}
		assertThat(origins).isNotEmpty();
		for (Path origin : origins) {
			for (String line : Files.readAllLines(origin)) {
				if (!line.startsWith("#") && line.contains(">")) {
					assertThat(line).as(origin.toString()).endsWith(">staging=");
				}
			}
		}
	}

	private static Path copyApplication() throws IOException {
		Path source = Path.of(System.getProperty("zkspring.root"), "dist-check", "src", "it", "orders");
		Path target = itDir.resolve("orders");
		deleteRecursively(target);
		try (Stream<Path> files = Files.walk(source)) {
			for (Path file : files.toList()) {
				Path copy = target.resolve(source.relativize(file).toString());
				if (Files.isDirectory(file)) {
					Files.createDirectories(copy);
				}
				else {
					String text = Files.readString(file).replace("@zk-spring.version@", version)
						.replace("@spring-boot.version@", System.getProperty("spring-boot.version"))
						.replace("@zookeeper.version@", System.getProperty("zookeeper.version"));
					Files.writeString(copy, text);
				}
			}
		}
		return target;
	}

	private static Path writeSettings() throws IOException {
		String outer = Path.of(System.getProperty("outer.local.repo")).toUri().toString();
		String staged = staging.toUri().toString();
		String settings = """
				<settings>
				  <profiles>
				    <profile>
				      <id>staged</id>
				      <repositories>
				        <repository>
				          <id>staging</id>
				          <url>%1$s</url>
				          <releases><enabled>true</enabled></releases>
				          <snapshots><enabled>true</enabled><updatePolicy>always</updatePolicy></snapshots>
				        </repository>
				        <repository>
				          <id>central-copy</id>
				          <url>%2$s</url>
				          <releases><enabled>true</enabled></releases>
				          <snapshots><enabled>false</enabled></snapshots>
				        </repository>
				      </repositories>
				      <pluginRepositories>
				        <pluginRepository>
				          <id>central-copy</id>
				          <url>%2$s</url>
				          <releases><enabled>true</enabled></releases>
				          <snapshots><enabled>false</enabled></snapshots>
				        </pluginRepository>
				      </pluginRepositories>
				    </profile>
				  </profiles>
				  <activeProfiles>
				    <activeProfile>staged</activeProfile>
				  </activeProfiles>
				</settings>
				""".formatted(staged, outer);
		Files.createDirectories(itDir);
		Path file = itDir.resolve("settings.xml");
		Files.writeString(file, settings);
		return file;
	}

	private static Path staged(String module, String suffix) throws IOException {
		Path file = latest(module, suffix);
		assertThat(file).as("%s%s in %s", module, suffix, staging).isNotNull();
		return file;
	}

	private static Path latest(String module, String suffix) throws IOException {
		Path dir = staging.resolve("dev/zkspring").resolve(module).resolve(version);
		if (!Files.isDirectory(dir)) {
			return null;
		}
		String base = version.replace("-SNAPSHOT", "");
		try (Stream<Path> files = Files.list(dir)) {
			return files.filter((file) -> {
				String name = file.getFileName().toString();
				if (!name.startsWith(module + "-" + base) || !name.endsWith(suffix)) {
					return false;
				}
				String middle = name.substring((module + "-" + base).length(), name.length() - suffix.length());
				return middle.matches("(-\\d{8}\\.\\d{6}-\\d+)?");
			}).max(Comparator.naturalOrder()).orElse(null);
		}
	}

	private static String tail(Path log) throws IOException {
		List<String> lines = Files.readAllLines(log);
		return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
	}

	private static void deleteRecursively(Path dir) throws IOException {
		if (!Files.exists(dir)) {
			return;
		}
		try (Stream<Path> files = Files.walk(dir)) {
			for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
				Files.delete(file);
			}
		}
	}

}
