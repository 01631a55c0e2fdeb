package dev.zkspring.distcheck.layout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The znode layout is public (docs/versioning.md): where documents, history, canaries, locks, elections, job
 * records and fleet nodes live, and which kind of node each is. {@link EveryCapability} runs on a server of its
 * own; the tree is walked and each node written as a pattern (instance ids, sequence numbers, numbers and
 * Curator's protection prefixes as placeholders) with its kind, and compared with the committed
 * {@code api/znode-layout.txt}. A change to where or how anything is stored fails {@code mvn verify} until the
 * listing is regenerated in the same commit ({@code -Dapi.update=true}, as for the API listing) and the
 * changelog says so.
 */
class ZnodeLayoutTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	static Path committed() {
		return Path.of(System.getProperty("zkspring.root"), "api", "znode-layout.txt");
	}

	@Test
	void theZnodeLayoutIsTheCommittedOne() throws Exception {
		AtomicReference<String> listing = new AtomicReference<>();
		EveryCapability.run(zk.connectString(),
				(leader, follower, operator, ids) -> listing.set(EveryCapability.layout(operator, ids)));
		if (Boolean.getBoolean("api.update")) {
			Files.writeString(committed(), listing.get());
		}
		assertThat(listing.get()).as("the znode layout; regenerate api/znode-layout.txt with -Dapi.update=true "
				+ "and say so in CHANGELOG.md when the change is meant").isEqualTo(Files.readString(committed()));
	}

}
