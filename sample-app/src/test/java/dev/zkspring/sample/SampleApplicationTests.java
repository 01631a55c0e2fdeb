package dev.zkspring.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.zkspring.embedded.EmbeddedZooKeeper;

import static org.assertj.core.api.Assertions.assertThat;

/** The sample starts on its embedded ZooKeeper (on a free port here) and reports itself connected. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "zk.embedded.port=0")
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

}
