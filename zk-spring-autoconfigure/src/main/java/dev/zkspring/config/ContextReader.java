package dev.zkspring.config;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.curator.RetryLoop;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.ZKConfig;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * Reads the context documents in multi-reads small enough for the client's packet limit
 * ({@code jute.maxbuffer}): one reply over it is a lost connection, not an error. Sizes come from
 * the previous load when every context has one (so a reload is one multi-read, one round trip),
 * else from a stat of each node first (of the canary nodes, from one listing of their parent:
 * {@link NodeStats}); a multi planned on remembered sizes that loses the connection
 * (a document grew past them) is read again the careful way, stat first. The documents are packed into batches of at most half the limit (room for
 * a document growing in between), a larger one read alone, and one too large to be read at all
 * within the limit is not read but reported. When several batches were needed, every node is looked
 * at again: if none changed since it was read, all documents held together at one point of the
 * ensemble's history (else it reads again, up to three times).
 * <p>
 * Just over 300 lines: planning the batches, reading them and checking that they hold together are
 * one protocol over one client's packet limit and the sizes it remembers; split, each part would need
 * the others' state.
 */
final class ContextReader {

	/** Reply header, stat and lengths of one read, with room to spare. */
	static final int OVERHEAD = 1024;

	private static final int ATTEMPTS = 3;


	/** Test seam: runs after each batch is read. */
	static volatile Runnable afterBatch = () -> {
	};

	private final CuratorFramework client;

	private final NodeStats stats;

	/**
	 * Each context's size at the last read (0 when missing, or not readable by this identity: its read in
	 * the multi reports the error again at no cost), shared by the reads of one locator.
	 */
	private final Map<String, Integer> knownSizes;

	/**
	 * What the reads of one locator remember of nodes too large to read, so that they are not looked at
	 * again (a stat each, the careful way) on every change of another context: see {@link TooLarge}.
	 */
	private final TooLarge tooLarge;

	ContextReader(CuratorFramework client) {
		this(client, new ConcurrentHashMap<>());
	}

	ContextReader(CuratorFramework client, Map<String, Integer> knownSizes) {
		this(client, knownSizes, new TooLarge());
	}

	ContextReader(CuratorFramework client, Map<String, Integer> knownSizes, TooLarge tooLarge) {
		this.client = client;
		this.stats = new NodeStats(client);
		this.knownSizes = knownSizes;
		this.tooLarge = tooLarge;
	}

	/** The client's packet limit: no reply may be larger. */
	int packetLimit() throws Exception {
		ZKClientConfig config = zooKeeper().getClientConfig();
		return config.getInt(ZKConfig.JUTE_MAXBUFFER, ZKClientConfig.CLIENT_MAX_PACKET_LENGTH_DEFAULT);
	}

	/** Every context, in the order given. */
	List<Read> read(List<String> znodes) throws Exception {
		return read(znodes, Set.of());
	}

	/**
	 * Every node, in the order given; on the careful path the {@code listed} ones (nodes that mostly do
	 * not exist, such as canary nodes) are looked up by one listing of their parent instead of a stat
	 * each, and one not listed is not read (a missing node, remembered as size 0 for the next read).
	 */
	List<Read> read(List<String> znodes, Set<String> listed) throws Exception {
		int limit = packetLimit();
		Map<String, Long> changesAtStart = this.tooLarge.changes(znodes);
		List<@Nullable Stat> remembered = remembered(znodes);
		if (remembered != null) {
			try {
				Attempt attempt = readAll(znodes, remembered, limit, false);
				if (attempt.consistent()) {
					return remember(attempt.reads(), changesAtStart);
				}
			}
			catch (KeeperException ex) {
				// a reply over the packet limit (a document grew past its remembered size) loses the connection;
				// that and the other faults the careful path retries go there, without the remembered sizes
				if (!retriable(ex.code())) {
					throw ex;
				}
				this.knownSizes.clear();
			}
		}
		List<Read> reads = List.of();
		for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
			List<@Nullable Stat> sizes = new ArrayList<>();
			Map<String, @Nullable Set<String>> children = new HashMap<>();
			for (String znode : znodes) {
				sizes.add(listed.contains(znode) ? this.stats.listed(znode, children) : this.stats.readable(znode));
			}
			Attempt read = readAll(znodes, sizes, limit, true);
			reads = read.reads();
			if (read.consistent()) {
				break;
			}
		}
		// when changed under every attempt, the latest read stands, and the watch brings the next change
		return remember(reads, changesAtStart);
	}

	private static boolean retriable(KeeperException.Code code) {
		return code == KeeperException.Code.CONNECTIONLOSS || code == KeeperException.Code.OPERATIONTIMEOUT
				|| code == KeeperException.Code.SESSIONMOVED || code == KeeperException.Code.SESSIONEXPIRED;
	}

	/** The reads, and whether they hold together (one batch, or several none of whose nodes changed since). */
	private Attempt readAll(List<String> znodes, List<@Nullable Stat> sizes, int limit, boolean retry)
			throws Exception {
		Read[] read = new Read[znodes.size()];
		List<List<Integer>> batches = new ArrayList<>();
		for (List<Integer> batch : batches(sizes, limit)) {
			// a node its parent's listing did not hold is not read: missing
			List<Integer> present = batch.stream().filter((i) -> sizes.get(i) != NodeStats.ABSENT).toList();
			batch.stream().filter((i) -> sizes.get(i) == NodeStats.ABSENT)
				.forEach((i) -> read[i] = new Read(znodes.get(i), null, null, KeeperException.Code.NONODE, 0));
			if (!present.isEmpty()) {
				batches.add(present);
			}
		}
		int requests = 0;
		for (List<Integer> batch : batches) {
			if (readBatch(znodes, sizes, batch, limit, read, retry)) {
				requests++;
			}
			afterBatch.run();
		}
		List<Read> reads = List.of(read);
		// a node too large to read is reported from its stat, not read: it takes no part in holding together
		return new Attempt(reads, requests <= 1 || unchanged(reads));
	}

	private record Attempt(List<Read> reads, boolean consistent) {
	}

	/** Sizes from the previous read as stats, or {@code null} when a context has none. */
	private @Nullable List<@Nullable Stat> remembered(List<String> znodes) {
		List<@Nullable Stat> sizes = new ArrayList<>();
		for (String znode : znodes) {
			Stat tooLarge = this.tooLarge.stat(znode);
			Integer size = this.knownSizes.get(znode);
			if (tooLarge != null) {
				// planned alone and not read: reported again from its stat
				sizes.add(tooLarge);
				continue;
			}
			if (size == null) {
				return null;
			}
			Stat stat = new Stat();
			stat.setDataLength(size);
			sizes.add(stat);
		}
		return sizes;
	}

	private List<Read> remember(List<Read> reads, Map<String, Long> changesAtStart) {
		for (Read read : reads) {
			String znode = read.znode();
			if (read.stat() != null && read.tooLargeFor() == 0) {
				this.knownSizes.put(znode, read.stat().getDataLength());
				this.tooLarge.forget(znode);
			}
			else if (read.stat() != null) {
				this.knownSizes.remove(znode);
				this.tooLarge.remember(znode, read.stat(), changesAtStart.get(znode));
			}
			else if (read.error() != null && read.error() != KeeperException.Code.CONNECTIONLOSS) {
				// missing, or refused to this identity (NOAUTH...): read again in the multi, which answers per node
				this.knownSizes.put(znode, 0);
				this.tooLarge.forget(znode);
			}
			else {
				this.knownSizes.remove(znode);
				this.tooLarge.forget(znode);
			}
		}
		return reads;
	}

	/** Read one batch; {@code false} when it was one node too large to read, reported without a request. */
	private boolean readBatch(List<String> znodes, List<@Nullable Stat> sizes, List<Integer> batch, int limit,
			Read[] read, boolean retry) throws Exception {
		if (batch.size() == 1) {
			Stat stat = sizes.get(batch.get(0));
			if (stat != null && stat.getDataLength() + OVERHEAD > limit) {
				read[batch.get(0)] = new Read(znodes.get(batch.get(0)), null, stat, null, limit);
				return false;
			}
		}
		List<Op> ops = batch.stream().map((i) -> Op.getData(path(znodes.get(i)))).toList();
		// without retry when planned on remembered sizes: the same multi would lose the connection again
		List<OpResult> results;
		try {
			Callable<List<OpResult>> multi = () -> TracedRequests.call(this.client, "multi", () -> zooKeeper().multi(ops));
			results = retry ? RetryLoop.callWithRetry(this.client.getZookeeperClient(), multi) : multi.call();
		}
		catch (KeeperException.UnimplementedException ex) {
			// a server before 3.6: no multi-read (it closes the connection too)
			throw ServerVersion.tooOld(this.client);
		}
		for (int j = 0; j < batch.size(); j++) {
			String znode = znodes.get(batch.get(j));
			if (results.get(j) instanceof OpResult.GetDataResult data) {
				read[batch.get(j)] = new Read(znode, data.getData(), data.getStat(), null, 0);
			}
			else {
				read[batch.get(j)] = new Read(znode, null, null,
						KeeperException.Code.get(((OpResult.ErrorResult) results.get(j)).getErr()), 0);
			}
		}
		return true;
	}

	/** Consecutive contexts while their sizes fit half the limit; a larger one alone. */
	static List<List<Integer>> batches(List<@Nullable Stat> sizes, int limit) {
		long budget = limit / 2;
		List<List<Integer>> batches = new ArrayList<>();
		List<Integer> current = new ArrayList<>();
		long used = 0;
		for (int i = 0; i < sizes.size(); i++) {
			Stat stat = sizes.get(i);
			long size = ((stat != null) ? stat.getDataLength() : 0) + OVERHEAD;
			if (!current.isEmpty() && used + size > budget) {
				batches.add(current);
				current = new ArrayList<>();
				used = 0;
			}
			current.add(i);
			used += size;
		}
		if (!current.isEmpty()) {
			batches.add(current);
		}
		return batches;
	}

	private boolean unchanged(List<Read> reads) throws Exception {
		for (Read read : reads) {
			if (read.error() == KeeperException.Code.NONODE || read.stat() != null) {
				Stat now = this.stats.readable(read.znode());
				Stat then = read.stat();
				if ((now == null) != (then == null) || (now != null && (now.getMzxid() != then.getMzxid()
						|| now.getCzxid() != then.getCzxid()))) {
					return false;
				}
			}
		}
		return true;
	}

	private String path(String znode) {
		return ZKPaths.fixForNamespace(this.client.getNamespace(), znode);
	}

	private ZooKeeper zooKeeper() throws Exception {
		return this.client.getZookeeperClient().getZooKeeper();
	}

	/**
	 * What was read of one context.
	 * @param znode the context node
	 * @param data its document, when read
	 * @param stat its stat, when read or when too large to read
	 * @param error ZooKeeper's error for this node ({@code NONODE}, {@code NOAUTH}...), if any
	 * @param tooLargeFor the packet limit the document is too large for; 0 when it was read
	 */
	record Read(String znode, byte @Nullable [] data, @Nullable Stat stat, KeeperException.@Nullable Code error,
			int tooLargeFor) {

		Stat requireStat() {
			return Objects.requireNonNull(this.stat);
		}

	}

}
