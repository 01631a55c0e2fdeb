package dev.zkspring.apps.webflux;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.env.Environment;

import dev.zkspring.test.ZkConfig;
import dev.zkspring.test.ZkTestConfig;

import static org.assertj.core.api.Assertions.assertThat;

/** The reactive server started for real on a random port, with the test kit. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ZkConfig(context = "webflux", json = "{\"shop\":{\"banner\":\"from zookeeper\"}}")
class WebFluxApplicationTests {

	@Autowired
	Environment environment;

	@Autowired
	ZkTestConfig zkConfig;

	@Test
	void theBannerFollowsZooKeeperAndTheLockIsTakenOffTheEventLoop() throws Exception {
		assertThat(get("/banner")).isEqualTo("from zookeeper");
		assertThat(this.zkConfig.put("webflux", "{\"shop\":{\"banner\":\"changed\"}}").applied()).isTrue();
		assertThat(get("/banner")).isEqualTo("changed");
		assertThat(get("/reserve/apple")).isEqualTo("reserved apple");
	}

	private String get(String path) throws Exception {
		HttpResponse<String> response = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://localhost:" + this.environment.getProperty("local.server.port") + path))
				.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).as(path).isEqualTo(200);
		return response.body();
	}

}
