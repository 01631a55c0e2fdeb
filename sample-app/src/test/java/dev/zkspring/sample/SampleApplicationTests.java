package dev.zkspring.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.apache.curator.framework.CuratorFramework;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.zkspring.embedded.EmbeddedZooKeeper;

import static org.assertj.core.api.Assertions.assertThat;

/** The sample on its embedded ZooKeeper (on a free port here): connected, leading, serving its page and its stock. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = { "zk.embedded.port=0", "sample.data-dir=./target/test-db" })
class SampleApplicationTests {

	@LocalServerPort
	int port;

	@Autowired
	CuratorFramework client;

	@Autowired
	EmbeddedZooKeeper server;

	@Test
	void startsConnectedToItsEmbeddedZooKeeperAndSaysSo() throws Exception {
		assertThat(this.client.getZookeeperClient().getCurrentConnectionString()).isEqualTo(this.server.connectString());
		HttpResponse<String> response = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + "/status")).build(),
					HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).contains("\"connected\":true").contains(this.server.connectString());
	}

	@Test
	void statusPageShowsThisInstanceAsLeaderAndTheConfiguredGreeting() throws Exception {
		// the only participant is granted leadership shortly after startup
		Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
			HttpResponse<String> page = get("/");
			assertThat(page.statusCode()).isEqualTo(200);
			assertThat(page.headers().firstValue("Content-Type")).hasValueSatisfying((type) -> assertThat(type).startsWith("text/html"));
			assertThat(page.body()).contains("http-equiv=\"refresh\"")
				.contains("<td id=\"is-leader\" class=\"yes\">yes</td>")
				.contains("hello from application.yml");
		});
	}

	@Test
	void deductionsTakeOneItemAtATimeAndStopAtZero() throws Exception {
		HttpClient http = HttpClient.newHttpClient();
		HttpResponse<String> restock = http.send(HttpRequest.newBuilder(uri("/stock/pear?quantity=2"))
			.PUT(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
		assertThat(restock.statusCode()).isEqualTo(200);
		assertThat(deduct(http).body()).contains("\"quantity\":1");
		assertThat(deduct(http).body()).contains("\"quantity\":0");
		assertThat(deduct(http).statusCode()).isEqualTo(409);
		assertThat(get("/stock/pear").body()).contains("\"quantity\":0");
	}

	private HttpResponse<String> deduct(HttpClient http) throws Exception {
		return http.send(HttpRequest.newBuilder(uri("/stock/pear/deduct")).POST(HttpRequest.BodyPublishers.noBody()).build(),
				HttpResponse.BodyHandlers.ofString());
	}

	private HttpResponse<String> get(String path) throws Exception {
		return HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri(path)).build(), HttpResponse.BodyHandlers.ofString());
	}

	private URI uri(String path) {
		return URI.create("http://localhost:" + this.port + path);
	}

}
