package dev.zkspring.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

/** Started clients, each with its own session (one per simulated JVM), all closed together. */
final class Clients implements AutoCloseable {

	private final String connectString;

	private final List<CuratorFramework> open = new ArrayList<>();

	Clients(String connectString) {
		this.connectString = connectString;
	}

	String connectString() {
		return this.connectString;
	}

	CuratorFramework connect() throws InterruptedException {
		return connect(this.connectString, 30_000);
	}

	CuratorFramework connect(String connectString, int sessionTimeoutMs) throws InterruptedException {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(connectString)
			.sessionTimeoutMs(sessionTimeoutMs)
			.retryPolicy(new ExponentialBackoffRetry(100, 5))
			.build();
		client.start();
		if (!client.blockUntilConnected(10, TimeUnit.SECONDS)) {
			throw new IllegalStateException("no connection to " + connectString);
		}
		this.open.add(client);
		return client;
	}

	@Override
	public void close() {
		this.open.forEach(CuratorFramework::close);
		this.open.clear();
	}

}
