package dev.zkspring.reliability.workload;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HexFormat;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.ZooKeeper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import dev.zkspring.client.ZkConnectionStateChangedEvent;
import dev.zkspring.config.ZkConfigRejectedEvent;
import dev.zkspring.crash.CrashDetector;
import dev.zkspring.lock.ZkLockLostEvent;
import dev.zkspring.refresh.ZkRefreshedEvent;

/**
 * Journals what the application saw: configuration applied or refused, locks lost, whether crash detection
 * runs ({@code CD true|false}, once ready), and, for the
 * campaign's server-side expiry fault, the current session's id and password in a file of its own.
 */
@Component
public class Observations {

	private final Journal journal;

	private final WorkloadConfig config;

	private final CuratorFramework client;

	private final Path sessionFile;

	private final ObjectProvider<CrashDetector> crashDetector;

	Observations(Journal journal, WorkloadConfig config, CuratorFramework client, @Value("${reliability.dir}") Path dir,
			@Value("${reliability.instance}") int instance, ObjectProvider<CrashDetector> crashDetector) {
		this.journal = journal;
		this.crashDetector = crashDetector;
		this.config = config;
		this.client = client;
		this.sessionFile = dir.resolve("session-" + instance + ".txt");
	}

	@EventListener(ApplicationReadyEvent.class)
	void ready() {
		configSeen();
		writeSession();
		// crash detection (issue 42) is on by default: the report says in how many lives it ran
		CrashDetector detector = this.crashDetector.getIfAvailable();
		this.journal.line("CD", detector != null && detector.isRunning());
		this.journal.line("READY");
	}

	@EventListener(ZkRefreshedEvent.class)
	void configSeen() {
		this.journal.line("C", this.config.getVersion(), this.config.getCopy());
	}

	@EventListener
	void refused(ZkConfigRejectedEvent event) {
		this.journal.line("CR", event.getZnode(), event.getVersion());
	}

	@EventListener
	void lost(ZkLockLostEvent event) {
		this.journal.line("LL", event.getKey().replace(' ', '_'));
	}

	@EventListener
	void connection(ZkConnectionStateChangedEvent event) {
		this.journal.line("Z", event.getState(), Long.toHexString(event.getSessionId()));
		if (event.getState().isConnected()) {
			writeSession();
		}
	}

	private void writeSession() {
		try {
			ZooKeeper zooKeeper = this.client.getZookeeperClient().getZooKeeper();
			String line = Long.toHexString(zooKeeper.getSessionId()) + " "
					+ HexFormat.of().formatHex(zooKeeper.getSessionPasswd()) + "\n";
			Path temp = this.sessionFile.resolveSibling(this.sessionFile.getFileName() + ".tmp");
			Files.writeString(temp, line, StandardCharsets.US_ASCII);
			Files.move(temp, this.sessionFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
		}
		catch (Exception ex) {
			this.journal.line("ZERR", ex.getClass().getSimpleName());
		}
	}

}
