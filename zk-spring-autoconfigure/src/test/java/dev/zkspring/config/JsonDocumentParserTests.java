package dev.zkspring.config;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.ByteArrayResource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.entry;

class JsonDocumentParserTests {

	private final JsonDocumentParser parser = new JsonDocumentParser(1024);

	@Test
	void nestedObjectsFlattenToDottedKeysAndArraysToIndexedKeys() throws Exception {
		Map<String, String> properties = parse("{\"shop\":{\"owner\":{\"name\":\"ann\"},\"items\":[\"a\",{\"id\":2}],"
				+ "\"matrix\":[[1,2]]}}");
		assertThat(properties).containsOnly(entry("shop.owner.name", "ann"), entry("shop.items[0]", "a"),
				entry("shop.items[1].id", "2"), entry("shop.matrix[0][0]", "1"), entry("shop.matrix[0][1]", "2"));
	}

	@Test
	void numbersAndBooleansKeepTheirTextAndNullLeavesTheKeyUnset() throws Exception {
		assertThat(parse("{\"price\":1.50,\"big\":12345678901234567890,\"exp\":1e3,\"on\":true,\"gone\":null}"))
			.containsOnly(entry("price", "1.50"), entry("big", "12345678901234567890"), entry("exp", "1e3"),
					entry("on", "true"));
	}

	@Test
	void dottedKeysAreAcceptedAndEmptyOrBlankDocumentsAreEmptyContexts() throws Exception {
		assertThat(parse("{\"a.b\":{\"c_d\":\"x\",\"e-f\":\"y\"}}")).containsOnly(entry("a.b.c_d", "x"), entry("a.b.e-f", "y"));
		assertThat(parse("")).isEmpty();
		assertThat(parse("  \n")).isEmpty();
		assertThat(parse("{}")).isEmpty();
	}

	@Test
	void malformedJsonIsRejectedWithItsPositionButNotItsText() {
		assertThat(reject("{\"password\":\"s3cr3t\" \"x\":1}")).startsWith("malformed JSON at line 1, column")
			.doesNotContain("s3cr3t");
		assertThat(reject("{\"a\":1} trailing-s3cr3t")).startsWith("malformed JSON").doesNotContain("s3cr3t");
	}

	@Test
	void aRootThatIsNotAnObjectIsRejected() {
		assertThat(reject("[1,2]")).isEqualTo("the document's root is an array, not a JSON object");
		assertThat(reject("\"s3cr3t\"")).isEqualTo("the document's root is a string, not a JSON object");
	}

	@Test
	void invalidUtf8IsRejected() {
		byte[] data = { '{', '"', 'a', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}' };
		assertThatExceptionOfType(DocumentRejectedException.class).isThrownBy(() -> this.parser.parse(data))
			.satisfies((ex) -> assertThat(ex.reason()).startsWith("the document is not valid UTF-8"));
	}

	@Test
	void aDocumentOverTheSizeLimitIsRejected() {
		assertThat(reject("{\"a\":\"" + "x".repeat(1100) + "\"}")).contains("over the limit of 1024 bytes")
			.contains("zk.config.max-document-size");
	}

	@Test
	void nestingOf64LevelsIsAcceptedAndDeeperIsRejected() throws Exception {
		assertThat(parse(nested(64))).hasSize(1);
		assertThat(reject(nested(65))).isEqualTo("the document nests deeper than 64 levels");
	}

	@Test
	void otherParserLimitsAreRejectedWithoutQuotingTheDocument() {
		byte[] longNumber = ("{\"n\":" + "9".repeat(1001) + "}").getBytes(StandardCharsets.UTF_8);
		assertThatExceptionOfType(DocumentRejectedException.class)
			.isThrownBy(() -> new JsonDocumentParser(1 << 20).parse(longNumber))
			.satisfies((ex) -> assertThat(ex.reason()).startsWith("the document exceeds a JSON parser limit: ")
				.doesNotContain("999"));
	}

	@Test
	void emptyKeysAndKeysSpringCannotBindAreRejectedNamingTheKey() {
		assertRejectedKey("{\"\":1}", "the document has an empty key at its root", "");
		assertRejectedKey("{\"a\":{\"\":1}}", "the document has an empty key under 'a'", "a.");
		assertRejectedKey("{\"a\":{\"b]c\":1}}", "the key 'a.b]c' cannot be bound", "a.b]c");
		assertRejectedKey("{\"a[0]\":1}", "the key 'a[0]' cannot be bound", "a[0]");
	}

	@Test
	void keysThatAreNotPlainPropertyNamesBecomeVerbatimMapKeys() throws Exception {
		assertThat(parse("{\"routes\":{\"/api/**\":\"a\",\"b c\":\"b\",\"x:y\":\"c\",\"a..b\":\"d\","
				+ "\"[/v1/*]\":\"e\",\"com.example\":\"f\"}}"))
			.containsExactly(entry("routes[/api/**]", "a"), entry("routes[b c]", "b"), entry("routes[x:y]", "c"),
					entry("routes[a..b]", "d"), entry("routes[/v1/*]", "e"), entry("routes[com.example]", "f"));
	}

	@Test
	void namesOfLettersInAnyScriptAreDottedKeysAsBootsYamlLoaderWritesThem() throws Exception {
		// JSON is YAML: Boot's own loader reads the same text, and we must flatten it the same way
		String json = "{\"shop\":{\"grüße\":1,\"日本\":2,\"Ärger-x_y\":3,\"cafe\u0301\":4,\"/a b\":5}}";
		Map<String, String> properties = parse(json);
		assertThat(properties).containsExactly(entry("shop.grüße", "1"), entry("shop.日本", "2"),
				entry("shop.Ärger-x_y", "3"), entry("shop.cafe\u0301", "4"), entry("shop[/a b]", "5"));
		EnumerablePropertySource<?> yaml = (EnumerablePropertySource<?>) new YamlPropertySourceLoader()
			.load("yaml", new ByteArrayResource(json.getBytes(StandardCharsets.UTF_8)))
			.get(0);
		// the name with '/' and a space is one of those we keep as one map key in brackets, where YAML needs quotes
		assertThat(yaml.getPropertyNames()).filteredOn((key) -> key.indexOf('/') < 0)
			.containsExactlyInAnyOrderElementsOf(properties.keySet().stream().filter((key) -> key.indexOf('[') < 0).toList())
			.hasSize(4);
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources().addFirst(new ZnodePropertySource("/config/shop", 0, properties));
		ConfigurationPropertySources.attach(environment);
		assertThat(environment.getProperty("shop.grüße")).isEqualTo("1");
	}

	@Test
	void aDottedNameIsAPathAtTheRootAndOneMapKeyInsideAnObject() throws Exception {
		assertThat(parse("{\"shop.max-items\":5,\"hosts\":{\"db.example.com\":{\"port\":5432}},"
				+ "\"logging\":{\"level\":{\"com.example\":\"DEBUG\"}}}"))
			.containsExactly(entry("shop.max-items", "5"), entry("hosts[db.example.com].port", "5432"),
					entry("logging.level[com.example]", "DEBUG"));
	}

	@Test
	void anEmptyArrayIsAnEmptyValueAsInBootsYamlAndAnEmptyObjectAClearedMapMarker() throws Exception {
		assertThat(parse("{\"shop\":{\"items\":[],\"labels\":{},\"name\":\"x\"}}"))
			.containsExactly(entry("shop.items", ""), entry("shop.labels[]", ""), entry("shop.name", "x"));
	}

	@Test
	void aKeyDefinedTwiceIsRejected() {
		assertRejectedKey("{\"a\":{\"b\":1},\"a.b\":2}", "the key 'a.b' is defined twice", "a.b");
	}

	private void assertRejectedKey(String json, String reason, String key) {
		assertThatExceptionOfType(DocumentRejectedException.class)
			.isThrownBy(() -> this.parser.parse(json.getBytes(StandardCharsets.UTF_8)))
			.satisfies((ex) -> {
				assertThat(ex.reason()).startsWith(reason);
				assertThat(ex.key()).isEqualTo(key);
			});
	}

	private static String nested(int depth) {
		return "{\"k\":".repeat(depth - 1) + "{\"leaf\":1}" + "}".repeat(depth - 1);
	}

	private Map<String, String> parse(String json) throws DocumentRejectedException {
		return this.parser.parse(json.getBytes(StandardCharsets.UTF_8));
	}

	private String reject(String json) {
		try {
			this.parser.parse(json.getBytes(StandardCharsets.UTF_8));
		}
		catch (DocumentRejectedException ex) {
			return ex.reason();
		}
		throw new AssertionError("accepted: " + json);
	}

}
