package dev.zkspring.apps.secured;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.env.Environment;

import static org.assertj.core.api.Assertions.assertThat;

/** The zookeeper endpoint and health behind the application's own security, as every other endpoint. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class SecuredActuatorApplicationTests {

	@Autowired
	Environment environment;

	@Test
	void theEndpointsAnswerOperatorsOnly() throws Exception {
		assertThat(get("/actuator/zookeeper", null).statusCode()).isEqualTo(401);
		HttpResponse<String> endpoint = get("/actuator/zookeeper", "ops:not-a-real-password");
		assertThat(endpoint.statusCode()).isEqualTo(200);
		assertThat(endpoint.body()).contains("\"connected\":true");
		HttpResponse<String> health = get("/actuator/health", "ops:not-a-real-password");
		assertThat(health.statusCode()).isEqualTo(200);
		assertThat(health.body()).contains("\"zookeeper\"");
	}

	private HttpResponse<String> get(String path, String credentials) throws Exception {
		HttpRequest.Builder request = HttpRequest.newBuilder(
				URI.create("http://localhost:" + this.environment.getProperty("local.server.port") + path));
		if (credentials != null) {
			request.header("Authorization",
					"Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
		}
		return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

}
