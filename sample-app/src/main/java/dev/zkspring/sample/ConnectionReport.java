package dev.zkspring.sample;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * While ZooKeeper is away, one line every {@code sample.disconnected-report} (30 s) says so, in place of
 * ZooKeeper's client's stack trace on every reconnection attempt (its logger is at ERROR in
 * application.yml for that reason).
 */
@Component
class ConnectionReport implements DisposableBean {

	private static final Log logger = LogFactory.getLog(ConnectionReport.class);

	private final CuratorFramework client;

	private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor((task) -> {
		Thread thread = new Thread(task, "sample-connection-report");
		thread.setDaemon(true);
		return thread;
	});

	private @Nullable Instant disconnectedSince;

	ConnectionReport(CuratorFramework client, @Value("${sample.disconnected-report:30s}") Duration every) {
		this.client = client;
		this.timer.scheduleWithFixedDelay(this::check, every.toMillis(), every.toMillis(), TimeUnit.MILLISECONDS);
	}

	private void check() {
		if (this.client.getZookeeperClient().isConnected()) {
			this.disconnectedSince = null;
			return;
		}
		Instant now = Instant.now();
		if (this.disconnectedSince == null) {
			this.disconnectedSince = now;
		}
		logger.warn("Still not connected to ZooKeeper at " + this.client.getZookeeperClient().getCurrentConnectionString()
				+ " (for at least " + Duration.between(this.disconnectedSince, now).toSeconds()
				+ " s); retrying, and serving the last known configuration");
	}

	@Override
	public void destroy() {
		this.timer.shutdownNow();
	}

}
