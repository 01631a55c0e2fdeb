package dev.zkspring.crash;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.zkspring.crash.SessionCard.Card;

/**
 * This instance's connection to one peer session it waits behind, on a thread of its own that blocks in
 * a read: the peer never sends anything, so the read returns only when the connection closes. Then the
 * peer is probed: a reconnect that succeeds (a listener restarted), one that times out or cannot route
 * (a partition), or a connection that merely stays silent (a frozen or half-open peer) is no death; only
 * reconnects that are all <em>refused</em> for the whole reconnect bound are — the kernel of a host that
 * is up answers a connect to a closed port at once, and only a process that is gone has closed its port
 * without deleting its card first.
 * <p>
 * Over 300 lines because the whole rule of what counts as a death (close, refused reconnects within the bound, the card still there) is kept in one place, with its states.
 */
final class PeerLink {

	private static final Log logger = LogFactory.getLog(CrashDetector.class);

	/** Between connects to a peer that cannot be reached (a partition): its session expires if it is gone. */
	private static final long UNREACHABLE_RETRY_MS = 1_000;

	/** What the link is doing, shown in the fleet view. */
	enum State {
		NO_CARD, CONNECTING, CONNECTED, PROBING, UNREACHABLE, DEAD, GONE, CLOSED
	}

	/** What the link needs from the detector. */
	interface Host {

		@Nullable Card card(long session, @Nullable Runnable whenCreated) throws Exception;

		/** The peer died: end its session; called once, on the link's thread. */
		void died(PeerLink link, Card card, long closedAtNanos);

		int connectTimeoutMs();

		long reconnectTimeoutNanos();

	}

	private final long session;

	private final Host host;

	private final List<String> nodes = new CopyOnWriteArrayList<>();

	private final Object monitor = new Object();

	private volatile State state = State.CONNECTING;

	private volatile @Nullable Card card;

	private volatile @Nullable Socket socket;

	private volatile boolean closed;

	private boolean cardAppeared;

	private final Thread thread;

	PeerLink(long session, Host host) {
		this.session = session;
		this.host = host;
		this.thread = new Thread(this::run, "zk-crash-watch-" + Long.toHexString(session));
		this.thread.setDaemon(true);
	}

	void start() {
		this.thread.start();
	}

	long session() {
		return this.session;
	}

	State state() {
		return this.state;
	}

	@Nullable Card card() {
		return this.card;
	}

	List<String> nodes() {
		return List.copyOf(this.nodes);
	}

	void add(String node) {
		this.nodes.add(node);
	}

	/** @return whether no node is watched any more */
	boolean remove(String node) {
		this.nodes.remove(node);
		return this.nodes.isEmpty();
	}

	/** Stop watching: the peer's listener sees the connection close (and closes its end). */
	void close() {
		this.closed = true;
		if (this.state != State.DEAD && this.state != State.GONE) {
			this.state = State.CLOSED;
		}
		closeSocket();
		synchronized (this.monitor) {
			this.monitor.notifyAll();
		}
	}

	private void run() {
		try {
			while (!this.closed) {
				Card current = this.host.card(this.session, this::cardAppeared);
				if (current == null) {
					this.state = State.NO_CARD;
					// detection is off there (or the session ended): the session timeout applies
					waitFor(Long.MAX_VALUE, true);
					continue;
				}
				this.card = current;
				this.state = State.CONNECTING;
				Socket connected;
				try {
					connected = connect(current.address(), this.host.connectTimeoutMs());
				}
				catch (ConnectException ex) {
					if (refused(ex)) {
						if (probe(current, System.nanoTime())) {
							return;
						}
						continue;
					}
					unreachable();
					continue;
				}
				catch (IOException ex) {
					unreachable();
					continue;
				}
				if (!hold(connected)) {
					return;
				}
				long closedAt = System.nanoTime();
				if (probe(current, closedAt)) {
					return;
				}
			}
		}
		catch (Exception ex) {
			if (!this.closed) {
				logger.warn("Crash detection stopped watching session 0x" + Long.toHexString(this.session) + ": " + ex);
			}
		}
		finally {
			closeSocket();
		}
	}

	/** Block in a read until the connection closes; false when this link was closed meanwhile. */
	private boolean hold(Socket connected) {
		this.socket = connected;
		if (this.closed) {
			closeSocket();
			return false;
		}
		this.state = State.CONNECTED;
		try {
			InputStream in = connected.getInputStream();
			while (in.read() >= 0) {
				// the listener sends nothing; ignore whatever arrives
			}
		}
		catch (IOException ex) {
			// reset by the peer's kernel, or closed by us
		}
		closeSocket();
		return !this.closed;
	}

	/**
	 * The connection closed or a connect was refused: reconnect until the bound. Dead only when every attempt
	 * was refused and the card is still there (a graceful stop deletes it before closing the listener).
	 * @return whether the link is done (the peer died or deregistered, or the link was closed)
	 */
	private boolean probe(Card current, long closedAt) throws Exception {
		this.state = State.PROBING;
		long bound = this.host.reconnectTimeoutNanos();
		long deadline = closedAt + bound;
		long pause = Math.max(bound / 5, 1_000_000L);
		int refusals = 0;
		while (!this.closed) {
			try {
				Socket again = connect(current.address(), this.host.connectTimeoutMs());
				// alive: a listener that restarted, or a close that was not the process's end
				if (!hold(again)) {
					return true;
				}
				closedAt = System.nanoTime();
				deadline = closedAt + bound;
				refusals = 0;
				continue;
			}
			catch (ConnectException ex) {
				if (!refused(ex)) {
					unreachable();
					return false;
				}
				refusals++;
			}
			catch (IOException ex) {
				unreachable();
				return false;
			}
			if (deadline - System.nanoTime() <= 0 && refusals >= 2) {
				break;
			}
			waitFor(pause / 1_000_000L, false);
		}
		if (this.closed) {
			return true;
		}
		Card now = this.host.card(this.session, null);
		if (now == null) {
			this.state = State.GONE;
			return true;
		}
		if (!now.address().equals(current.address())) {
			// its listener moved (restarted on another port): watch the new one
			return false;
		}
		this.state = State.DEAD;
		this.host.died(this, now, closedAt);
		return true;
	}

	private void unreachable() {
		this.state = State.UNREACHABLE;
		waitFor(UNREACHABLE_RETRY_MS, false);
	}

	private void cardAppeared() {
		synchronized (this.monitor) {
			this.cardAppeared = true;
			this.monitor.notifyAll();
		}
	}

	private void waitFor(long millis, boolean untilCard) {
		synchronized (this.monitor) {
			long deadline = System.currentTimeMillis() + Math.min(millis, 60_000L);
			while (!this.closed && !(untilCard && this.cardAppeared)) {
				long left = deadline - System.currentTimeMillis();
				if (left <= 0) {
					break;
				}
				try {
					this.monitor.wait(left);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					this.closed = true;
				}
			}
			this.cardAppeared = false;
		}
	}

	private static Socket connect(InetSocketAddress address, int timeoutMs) throws IOException {
		Socket socket = new Socket();
		try {
			socket.setTcpNoDelay(true);
			socket.connect(new InetSocketAddress(address.getHostString(), address.getPort()), timeoutMs);
			return socket;
		}
		catch (IOException ex) {
			socket.close();
			throw ex;
		}
	}

	/** The kernel of the peer's host answered: nothing listens on that port. */
	static boolean refused(ConnectException ex) {
		String message = ex.getMessage();
		return message != null && message.contains("refused");
	}

	private void closeSocket() {
		Socket current = this.socket;
		this.socket = null;
		if (current != null) {
			try {
				current.close();
			}
			catch (IOException ex) {
				// closing anyway
			}
		}
	}

}
