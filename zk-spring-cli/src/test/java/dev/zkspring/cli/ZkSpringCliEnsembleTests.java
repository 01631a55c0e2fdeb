package dev.zkspring.cli;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.apache.curator.test.InstanceSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;

/** The tool against a 3-node ensemble, before and after its leader is killed. */
class ZkSpringCliEnsembleTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.ensemble();

	@TempDir
	Path dir;

	@Test
	void publishesAndRollsBackAcrossTheLossOfTheEnsemblesLeader() throws Exception {
		assertThat(put("{\"limit\":1}").status()).isZero();
		InstanceSpec killed = zk.killLeader();
		try {
			CliRun second = put("{\"limit\":2}", "--timeout", "30s");
			assertThat(second.status()).as(second.err()).isZero();
			CliRun rollback = CliRun.run(zk.connectString(), "", "config", "rollback", "orders", "--to", "1",
					"--timeout", "30s");
			assertThat(rollback.status()).as(rollback.err()).isZero();
			CliRun history = CliRun.run(zk.connectString(), "", "config", "history", "orders", "--timeout", "30s");
			assertThat(history.out().split("\n")).hasSize(4);
			assertThat(new String(zk.newClient().getData().forPath("/config/orders"), StandardCharsets.UTF_8))
				.isEqualTo("{\"limit\":1}");
		}
		finally {
			zk.restart(killed);
		}
	}

	private CliRun put(String document, String... options) throws Exception {
		Path file = Files.createTempFile(this.dir, "doc", ".json");
		Files.writeString(file, document);
		String[] args = new String[4 + options.length];
		args[0] = "config";
		args[1] = "put";
		args[2] = "orders";
		args[3] = file.toString();
		System.arraycopy(options, 0, args, 4, options.length);
		return CliRun.run(zk.connectString(), "", args);
	}

}
