package dev.zkspring.reliability;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;

/**
 * Writes {@code /config/workload} straight to the ensemble (not through any workload's links): good
 * documents numbered 1, 2, 3... with the number twice, and bad ones — malformed JSON, and documents
 * whose numbers are 1,000,000 and up with a value that cannot be converted — that every instance must refuse.
 */
final class ConfigWriter implements AutoCloseable {

	static final String ZNODE = "/config/workload";

	static final int REFUSED_BASE = 1_000_000;

	/** The most good documents in one burst. */
	static final int MAX_BURST = 50;

	/** The longest gap between two writes of a burst: about the time an instance takes to reload. */
	static final int MAX_GAP_MILLIS = 60;

	private final CuratorFramework client;

	/** Good versions in the order written, with the monotonic time of each write. */
	final List<long[]> written = new ArrayList<>();

	final Set<Integer> refused = new HashSet<>();

	int malformed;

	/** When each write, good or bad, was sent, in order: until the next one, the node holds what it wrote. */
	final List<Long> writeNanos = new ArrayList<>();

	/** The number of good documents in each burst, in order. */
	final List<Integer> bursts = new ArrayList<>();

	private int next = 1;

	ConfigWriter(String connectString) throws InterruptedException {
		this.client = CuratorFrameworkFactory.newClient(connectString, 10_000, 5_000, new RetryNTimes(30, 300));
		this.client.start();
		if (!this.client.blockUntilConnected(60, java.util.concurrent.TimeUnit.SECONDS)) {
			throw new IllegalStateException("the campaign's own client could not reach the ensemble at " + connectString);
		}
	}

	int writeGood() {
		int version = this.next++;
		write("{\"workload\":{\"version\":" + version + ",\"copy\":" + version + "}}");
		this.written.add(new long[] { version, System.nanoTime() });
		return version;
	}

	void writeMalformed() {
		write("{\"workload\":{\"version\":");
		this.malformed++;
	}

	void writeUnconvertible() {
		int version = REFUSED_BASE + this.refused.size();
		this.refused.add(version);
		write("{\"workload\":{\"version\":" + version + ",\"copy\":\"not-a-number\"}}");
	}

	/**
	 * A burst: 1 to {@link #MAX_BURST} good documents, a bad one (malformed or unconvertible) before about one
	 * in three of them, half of them back to back and half after a gap of up to {@link #MAX_GAP_MILLIS}, so
	 * changes arrive while instances are reloading. It ends on a good document, which every instance must
	 * then apply: coalescing may skip versions in between, never the last one.
	 */
	void writeBurst(Random random) {
		int good = 1 + random.nextInt(MAX_BURST);
		for (int i = 0; i < good; i++) {
			switch (random.nextInt(6)) {
				case 0 -> writeMalformed();
				case 1 -> writeUnconvertible();
				default -> {
				}
			}
			writeGood();
			if (i + 1 < good && random.nextBoolean()) {
				Processes.pause(1 + random.nextInt(MAX_GAP_MILLIS));
			}
		}
		this.bursts.add(good);
	}

	int lastGood() {
		return this.next - 1;
	}

	private void write(String json) {
		byte[] data = json.getBytes(StandardCharsets.UTF_8);
		// from the moment the write is sent, the node may hold the new document
		this.writeNanos.add(System.nanoTime());
		try {
			if (this.client.checkExists().forPath(ZNODE) == null) {
				this.client.create().creatingParentsIfNeeded().forPath(ZNODE, data);
			}
			else {
				this.client.setData().forPath(ZNODE, data);
			}
		}
		catch (Exception ex) {
			throw new IllegalStateException("could not write " + ZNODE + ": " + ex, ex);
		}
	}

	@Override
	public void close() {
		this.client.close();
	}

}
