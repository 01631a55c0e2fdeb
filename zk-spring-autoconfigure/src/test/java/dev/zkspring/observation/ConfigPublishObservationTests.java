package dev.zkspring.observation;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.autoconfigure.ZkObservationAutoConfiguration;
import dev.zkspring.config.ConfigLayout;
import dev.zkspring.publish.Change;
import dev.zkspring.publish.ConfigCanaries;
import dev.zkspring.publish.ConfigPublisher;
import dev.zkspring.publish.PublishException;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The publishing tool's writes made inside an application are {@code zk.config.publish} observations through
 * its registry: the context, the operation and the outcome, never a document's value; a publisher built by hand
 * is observed once given the registry; without a registry (the tool) nothing is observed and writes are as before.
 */
class ConfigPublishObservationTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	/** A value the documents hold: it must never show in an observation. */
	private static final String SECRET = "s3cret-4711";

	private final TestObservationRegistry registry = TestObservationRegistry.create();

	private CuratorFramework client;

	@TempDir
	Path dir;

	@BeforeEach
	void connect() throws Exception {
		this.client = zk.newClient();
	}

	@AfterEach
	void cleanUp() throws Exception {
		for (String root : List.of("/config", ConfigLayout.metaRoot("/config"))) {
			if (this.client.checkExists().forPath(root) != null) {
				this.client.delete().deletingChildrenIfNeeded().forPath(root);
			}
		}
		this.client.close();
	}

	private ApplicationContextRunner runner() {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class, ZkObservationAutoConfiguration.class))
			.withPropertyValues(zk.connectProperty(), "zk.config.enabled=false");
	}

	@Test
	void theApplicationsPublisherAndCanariesAreObservedByContextOperationAndOutcomeNeverAValue() {
		runner().withBean(ObservationRegistry.class, () -> this.registry).run((context) -> {
			assertThat(context).hasNotFailed();
			ConfigPublisher publisher = context.getBean(ConfigPublisher.class);
			Change alice = Change.by("alice", null);
			publisher.put("orders", json("v1"), alice);
			publisher.put("orders", json("v1"), alice);
			publisher.put("orders", json("v2"), alice.dryRun(true));
			assertThatExceptionOfType(PublishException.class)
				.isThrownBy(() -> publisher.put("orders", json("v2"), alice.expecting(7)));
			assertThatExceptionOfType(PublishException.class)
				.isThrownBy(() -> publisher.put("orders", "{\"pass\":".getBytes(StandardCharsets.UTF_8), alice));
			publisher.put("orders", json("v2"), alice);
			publisher.rollback("orders", 1, alice);
			Files.write(this.dir.resolve("billing.json"), json("b1"));
			Files.write(this.dir.resolve("stock.json"), json("s1"));
			publisher.importFrom(this.dir, alice);
			publisher.delete("stock", alice);
			ConfigCanaries canaries = context.getBean(ConfigCanaries.class);
			canaries.start("orders", json("v3"), List.of("a"), alice, false);
			canaries.abort("orders", alice);
			canaries.start("orders", json("v4"), List.of("a"), alice, false);
			canaries.promote("orders", "/fleet/orders", alice, true);
			// reads are not writes
			publisher.get("orders");
			publisher.history("orders");
		});
		TestObservationRegistryAssert.assertThat(this.registry)
			.hasNumberOfObservationsWithNameEqualTo("zk.config.publish", 13)
			.hasAnObservation((o) -> o.hasNameEqualTo("zk.config.publish")
				.hasContextualNameEqualTo("zk config put")
				.hasLowCardinalityKeyValue("context", "orders")
				.hasLowCardinalityKeyValue("operation", "put")
				.hasLowCardinalityKeyValue("outcome", "written")
				.hasHighCardinalityKeyValue("zk.config.revision", "1")
				.isExactlyInstanceOf(ZkPublishContext.class))
			.hasAnObservation((o) -> o.hasLowCardinalityKeyValue("operation", "put")
				.hasLowCardinalityKeyValue("outcome", "unchanged")
				.hasHighCardinalityKeyValue("zk.config.revision", "none"))
			.hasAnObservation((o) -> o.hasLowCardinalityKeyValue("operation", "put")
				.hasLowCardinalityKeyValue("outcome", "dry_run"))
			.hasAnObservation((o) -> o.hasLowCardinalityKeyValue("operation", "put")
				.hasLowCardinalityKeyValue("outcome", "conflict")
				.doesNotHaveError())
			.hasAnObservation((o) -> o.hasLowCardinalityKeyValue("operation", "put")
				.hasLowCardinalityKeyValue("outcome", "invalid")
				.doesNotHaveError())
			.hasAnObservation((o) -> o.hasLowCardinalityKeyValue("operation", "rollback")
				.hasLowCardinalityKeyValue("outcome", "written")
				.hasHighCardinalityKeyValue("zk.config.revision", "3"))
			.hasAnObservation((o) -> o.hasLowCardinalityKeyValue("operation", "import")
				.hasLowCardinalityKeyValue("context", "billing,stock")
				.hasLowCardinalityKeyValue("outcome", "written"))
			.hasAnObservation((o) -> o.hasLowCardinalityKeyValue("operation", "delete")
				.hasLowCardinalityKeyValue("context", "stock")
				.hasLowCardinalityKeyValue("outcome", "written"))
			.hasAnObservation((o) -> o.hasLowCardinalityKeyValue("operation", "canary")
				.hasContextualNameEqualTo("zk config canary")
				.hasLowCardinalityKeyValue("outcome", "written"))
			.hasAnObservation((o) -> o.hasLowCardinalityKeyValue("operation", "abort")
				.hasLowCardinalityKeyValue("outcome", "written"))
			.hasAnObservation((o) -> o.hasLowCardinalityKeyValue("operation", "promote")
				.hasLowCardinalityKeyValue("context", "orders")
				.hasLowCardinalityKeyValue("outcome", "written"))
			.hasHandledContextsThatSatisfy((contexts) -> assertThat(keyValuesOf(contexts))
				.noneMatch((value) -> value.contains(SECRET) || value.contains("alice")));
	}

	@Test
	void aWriteThatFailsInZooKeeperEndsFailedWithTheError() throws Exception {
		CuratorFramework closed = zk.newClient();
		ConfigPublisher publisher = new ConfigPublisher(closed, "/config");
		new ZkObservations(this.registry, ZkObservations.Conventions.defaults()).instrument(publisher);
		closed.close();
		assertThatExceptionOfType(Exception.class)
			.isThrownBy(() -> publisher.put("orders", json("v1"), Change.by("alice", null)));
		TestObservationRegistryAssert.assertThat(this.registry)
			.hasObservationWithNameEqualTo("zk.config.publish")
			.that()
			.hasLowCardinalityKeyValue("outcome", "failed")
			.hasError();
	}

	@Test
	void aPublisherBuiltByHandIsObservedOnceGivenTheRegistryAndNotBefore() throws Exception {
		ConfigPublisher publisher = new ConfigPublisher(this.client, "/config");
		publisher.put("orders", json("v1"), Change.by("alice", null));
		TestObservationRegistryAssert.assertThat(this.registry).doesNotHaveAnyObservation();
		new ZkObservations(this.registry, ZkObservations.Conventions.defaults()).instrument(publisher);
		publisher.put("orders", json("v2"), Change.by("alice", null));
		TestObservationRegistryAssert.assertThat(this.registry)
			.hasObservationWithNameEqualTo("zk.config.publish")
			.that()
			.hasLowCardinalityKeyValue("outcome", "written")
			.hasHighCardinalityKeyValue("zk.config.revision", "2");
	}

	@Test
	void theApplicationsConventionRenamesItAndAddsAKey() {
		runner().withBean(ObservationRegistry.class, () -> this.registry)
			.withBean(ZkPublishConvention.class, TeamConvention::new)
			.run((context) -> context.getBean(ConfigPublisher.class).put("orders", json("v1"), Change.by("alice", null)));
		TestObservationRegistryAssert.assertThat(this.registry)
			.hasObservationWithNameEqualTo("shop.config.publish")
			.that()
			.hasLowCardinalityKeyValue("team", "orders")
			.hasLowCardinalityKeyValue("operation", "put");
	}

	@Test
	void withoutARegistryThePublisherBeanPublishesUnobserved() {
		runner().run((context) -> {
			assertThat(context).hasNotFailed().hasSingleBean(ConfigPublisher.class).doesNotHaveBean(ZkObservations.class);
			assertThat(context.getBean(ConfigPublisher.class).put("orders", json("v1"), Change.by("alice", null)).written())
				.isTrue();
		});
	}

	@Test
	void withoutMicrometerObservationThePublisherBeanPublishes() {
		runner().withClassLoader(new FilteredClassLoader(Observation.class)).run((context) -> {
			assertThat(context).hasNotFailed().hasSingleBean(ConfigCanaries.class).doesNotHaveBean(ZkObservations.class);
			assertThat(context.getBean(ConfigPublisher.class).put("orders", json("v1"), Change.by("alice", null)).written())
				.isTrue();
		});
	}

	private static byte[] json(String version) {
		return ("{\"shop\":{\"version\":\"" + version + "\",\"password\":\"" + SECRET + "\"}}")
			.getBytes(StandardCharsets.UTF_8);
	}

	private static List<String> keyValuesOf(List<Observation.Context> contexts) {
		return contexts.stream()
			.flatMap((context) -> Stream.concat(context.getLowCardinalityKeyValues().stream(),
					context.getHighCardinalityKeyValues().stream()))
			.map(KeyValue::getValue)
			.toList();
	}

	static class TeamConvention extends DefaultZkPublishConvention {

		@Override
		public String getName() {
			return "shop.config.publish";
		}

		@Override
		public KeyValues getLowCardinalityKeyValues(ZkPublishContext context) {
			return super.getLowCardinalityKeyValues(context).and("team", "orders");
		}

	}

}
