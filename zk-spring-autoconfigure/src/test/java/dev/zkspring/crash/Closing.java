package dev.zkspring.crash;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a crash test opened (clients, detectors, elections, executors), closed after each test in reverse
 * order; and the connected clients those tests start, each a session of its own.
 */
final class Closing implements AfterEachCallback {

	private final List<AutoCloseable> opened = new ArrayList<>();

	/** Close this after the test, before everything added earlier. */
	void add(AutoCloseable closeable) {
		this.opened.add(closeable);
	}

	/** A started, connected client with a session of its own, closed after the test. */
	CuratorFramework client(String connect, int sessionTimeoutMs, @Nullable String digest) throws InterruptedException {
		CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
			.connectString(connect)
			.sessionTimeoutMs(sessionTimeoutMs)
			.connectionTimeoutMs(5_000)
			.retryPolicy(new ExponentialBackoffRetry(100, 3));
		if (digest != null) {
			builder.authorization("digest", digest.getBytes(StandardCharsets.UTF_8));
		}
		CuratorFramework client = builder.build();
		client.start();
		add(client);
		assertThat(client.blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
		return client;
	}

	@Override
	public void afterEach(ExtensionContext context) throws Exception {
		for (int i = this.opened.size() - 1; i >= 0; i--) {
			this.opened.get(i).close();
		}
		this.opened.clear();
	}

}
