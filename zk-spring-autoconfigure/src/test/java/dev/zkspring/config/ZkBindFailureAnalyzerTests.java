package dev.zkspring.config;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import jakarta.validation.constraints.Size;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.AnnotationAwareOrderComparator;
import org.springframework.validation.annotation.Validated;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * A value from ZooKeeper that cannot be bound at startup is reported by key and znode, never by value
 * (issue 25.9): Boot's own report would print it as {@code Value: "..."}. Values from other sources are
 * left to Boot's report.
 */
@ExtendWith(OutputCaptureExtension.class)
class ZkBindFailureAnalyzerTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	private static final String SECRET = "s3cret-not-a-number";

	@TempDir
	Path snapshots;

	@AfterEach
	void cleanUp() throws Exception {
		CuratorFramework client = zk.newClient();
		if (client.checkExists().forPath("/config") != null) {
			client.delete().deletingChildrenIfNeeded().forPath("/config");
		}
	}

	@Test
	void anUnbindableValueFromZooKeeperIsReportedByKeyAndZnodeWithoutItsValue(CapturedOutput output) throws Exception {
		zk.newClient().create().creatingParentsIfNeeded().forPath("/config/shop",
				("{\"shop\":{\"limit\":\"" + SECRET + "\"}}").getBytes(StandardCharsets.UTF_8));
		assertThatException().isThrownBy(() -> run());
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("shop.limit")
			.contains("znode /config/shop")
			.doesNotContain(SECRET);
	}

	@Test
	void anInvalidValueFromZooKeeperIsReportedByKeyAndZnodeWithoutItsValue(CapturedOutput output) throws Exception {
		zk.newClient().create().creatingParentsIfNeeded().forPath("/config/shop",
				"{\"shop\":{\"limit\":1,\"code\":\"s3cret-way-too-long\"}}".getBytes(StandardCharsets.UTF_8));
		assertThatException().isThrownBy(() -> run());
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("shop.code")
			.contains("znode /config/shop")
			.doesNotContain("s3cret-way-too-long");
	}

	@Test
	void anUnbindableValueFromElsewhereIsLeftToBootsReport(CapturedOutput output) {
		assertThatException().isThrownBy(() -> run("--shop.limit=plain-not-a-number"));
		assertThat(output).contains("APPLICATION FAILED TO START").contains("Value: \"plain-not-a-number\"");
	}

	@Test
	void comesBeforeBootsUnorderedAnalyzersWhereverTheClassPathPutsThem() {
		FailureAnalyzer boots = (failure) -> null;
		List<FailureAnalyzer> analyzers = new ArrayList<>(List.of(boots, new ZkBindFailureAnalyzer()));
		AnnotationAwareOrderComparator.sort(analyzers);
		assertThat(analyzers.get(0)).isInstanceOf(ZkBindFailureAnalyzer.class);
	}

	private void run(String... args) {
		SpringApplication application = new SpringApplication(App.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		String[] all = new String[args.length + 4];
		all[0] = "--" + zk.connectProperty();
		all[1] = "--spring.application.name=shop";
		all[2] = "--zk.config.snapshot-dir=" + this.snapshots;
		all[3] = "--spring.main.banner-mode=off";
		System.arraycopy(args, 0, all, 4, args.length);
		application.run(all).close();
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(ZkAutoConfiguration.class)
	@EnableConfigurationProperties(ShopProperties.class)
	static class App {

	}

	@ConfigurationProperties("shop")
	@Validated
	static class ShopProperties {

		private int limit;

		@Size(max = 5)
		private String code = "";

		public String getCode() {
			return this.code;
		}

		public void setCode(String code) {
			this.code = code;
		}

		public int getLimit() {
			return this.limit;
		}

		public void setLimit(int limit) {
			this.limit = limit;
		}

	}

}
