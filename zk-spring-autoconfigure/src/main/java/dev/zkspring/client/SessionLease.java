package dev.zkspring.client;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.zookeeper.KeeperException;
import org.jspecify.annotations.Nullable;

/**
 * The latest instant until which this client's session is certainly alive on the ensemble, known
 * locally without a round trip. Every decision taken in the session's name (admitting a lock holder,
 * firing a leader-only job, granting leadership) asks {@link #isValid()} first, so a process that
 * resumes after a freeze acts on nothing before it has heard from ZooKeeper again.
 * <p>
 * A reply to a request sent at time {@code t} proves the server heard the client at or after
 * {@code t}; a server expires a session no sooner than the negotiated timeout {@code T} after it last
 * heard from it. The lease therefore runs to {@code t + T - T/3}: the third kept back covers the
 * server's tick and how followers report sessions to the ensemble's leader. It is renewed by the
 * features' own requests ({@link #beforeRequest()} / {@link #replied(Stamp)}) and, while the client is
 * idle, by one cheap read each {@code T/6}. A session is identified by Curator's instance index, which
 * changes whenever Curator opens a new ZooKeeper handle (so a new session): a reply counts only when
 * the handle did not change between the request and its reply.
 * <p>
 * One lease per client: the auto-configuration makes it a bean, every feature uses that one.
 * <p>
 * Over 300 lines because the lease's state, the renewal thread that keeps it and the listeners it tells
 * share one lock and one clock; the public {@link Stamp} and {@link Listener} are nested so users find
 * them with the lease.
 */
public final class SessionLease implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(SessionLease.class);

	private final CuratorFramework client;

	private final LongSupplier nanoClock;

	private final AtomicReference<Grant> grant = new AtomicReference<>(Grant.NONE);

	private final List<Listener> listeners = new CopyOnWriteArrayList<>();

	private final ReentrantLock lock = new ReentrantLock();

	private final Condition changed = this.lock.newCondition();

	private final Thread renewer;

	private volatile boolean closed;

	private volatile boolean readInFlight;

	private volatile boolean renewRequested;

	/** What the listeners were last told; touched by the lease's thread only. */
	private boolean announcedValid;

	private SessionLease(CuratorFramework client, LongSupplier nanoClock) {
		this.client = client;
		this.nanoClock = nanoClock;
		this.renewer = new Thread(this::renewLoop, "zk-session-lease");
		this.renewer.setDaemon(true);
	}

	/**
	 * Start the lease of a client; close it before (or with) the client.
	 * @param client the application's client, started or about to be
	 * @return the running lease
	 */
	public static SessionLease start(CuratorFramework client) {
		return start(client, System::nanoTime);
	}

	static SessionLease start(CuratorFramework client, LongSupplier nanoClock) {
		return start(client, nanoClock, null);
	}

	/** Start with a listener already told, so it hears the first grant too (a listener added later may not). */
	static SessionLease start(CuratorFramework client, LongSupplier nanoClock, @Nullable Listener first) {
		SessionLease lease = new SessionLease(client, nanoClock);
		if (first != null) {
			lease.addListener(first);
		}
		lease.renewer.start();
		return lease;
	}

	/** Whether the current session is certainly alive on the ensemble now. */
	public boolean isValid() {
		Grant current = this.grant.get();
		return current.session == currentSession() && this.nanoClock.getAsLong() - current.untilNanos < 0;
	}

	/**
	 * Whether the given session is the current one and certainly alive now: a lock turn or a leadership
	 * confirmed under {@code session} may act only while this holds.
	 * @param session a value of {@link #session()} taken when the turn was confirmed
	 * @return whether the lease is valid for it
	 */
	public boolean isValidFor(long session) {
		return session != 0 && session == this.grant.get().session && isValid();
	}

	/**
	 * Curator's identity of the current session (its instance index): it changes with every new
	 * ZooKeeper handle, so with every new session. Take it before a request and pass it to
	 * {@link #isValidFor(long)} later.
	 * @return the current session's identity
	 */
	public long session() {
		return currentSession();
	}

	/** Nanoseconds left on the lease now, zero or less when lapsed or for another session. */
	public long remainingNanos() {
		Grant current = this.grant.get();
		if (current.session != currentSession()) {
			return 0;
		}
		return current.untilNanos - this.nanoClock.getAsLong();
	}

	/**
	 * Mark the moment a request is sent, for {@link #replied(Stamp)}.
	 * @return the stamp to pass on when a successful reply arrives
	 */
	public Stamp beforeRequest() {
		return new Stamp(currentSession(), this.nanoClock.getAsLong());
	}

	/**
	 * A request sent at {@code stamp} was answered by the server (success, or a definite error such as
	 * NoNode): renew the lease from it, unless the session changed meanwhile.
	 * @param stamp from {@link #beforeRequest()} just before the request was sent
	 */
	public void replied(Stamp stamp) {
		int timeoutMs = this.client.getZookeeperClient().getLastNegotiatedSessionTimeoutMs();
		if (timeoutMs <= 0 || stamp.session == 0 || stamp.session != currentSession()) {
			return;
		}
		long until = stamp.sentNanos + TimeUnit.MILLISECONDS.toNanos(timeoutMs) * 2 / 3;
		Grant previous = this.grant.getAndUpdate((current) -> {
			if (current.session == stamp.session && current.untilNanos - until >= 0) {
				return current;
			}
			if (current.session > stamp.session) {
				return current;
			}
			return new Grant(stamp.session, until);
		});
		if (previous.session != stamp.session || previous.untilNanos - this.nanoClock.getAsLong() <= 0) {
			// valid again after a lapse or in a new session: let the lease's thread tell the listeners
			signal();
		}
	}

	/**
	 * Wait until the lease is valid, asking the server at once.
	 * @param timeout the longest wait
	 * @param unit its unit
	 * @return whether the lease is valid
	 * @throws InterruptedException when the waiting thread is interrupted
	 */
	public boolean awaitValid(long timeout, TimeUnit unit) throws InterruptedException {
		if (isValid()) {
			return true;
		}
		long deadline = System.nanoTime() + unit.toNanos(timeout);
		this.lock.lockInterruptibly();
		try {
			this.renewRequested = true;
			this.changed.signalAll();
			while (!isValid()) {
				long remaining = deadline - System.nanoTime();
				if (remaining <= 0 || this.closed) {
					return false;
				}
				this.changed.awaitNanos(Math.min(remaining, TimeUnit.MILLISECONDS.toNanos(50)));
			}
			return true;
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Be told when the lease lapses or is granted again. Called on the lease's own thread: a listener
	 * only marks state (puts holds in doubt, stops acting) and returns; anything slow goes elsewhere.
	 * @param listener the listener
	 */
	public void addListener(Listener listener) {
		this.listeners.add(listener);
	}

	/** Stop being told. */
	public void removeListener(Listener listener) {
		this.listeners.remove(listener);
	}

	@Override
	public void close() {
		this.closed = true;
		signal();
		this.renewer.interrupt();
	}

	private long currentSession() {
		return this.client.getZookeeperClient().getInstanceIndex();
	}

	private void renewLoop() {
		while (!this.closed) {
			try {
				this.lock.lockInterruptibly();
				try {
					if (!this.renewRequested && !renewDue()) {
						this.changed.awaitNanos(nextWakeNanos());
					}
				}
				finally {
					this.lock.unlock();
				}
				announceChange();
				if (this.client.getState() == CuratorFrameworkState.STOPPED) {
					return;
				}
				if (this.renewRequested || renewDue()) {
					this.renewRequested = false;
					readOnce();
				}
			}
			catch (InterruptedException ex) {
				if (this.closed) {
					return;
				}
			}
			catch (RuntimeException ex) {
				logger.debug("Session lease renewal failed: " + ex);
			}
		}
	}

	/** Idle renewal: when less than half the session timeout is left and no read is on its way. */
	private boolean renewDue() {
		int timeoutMs = this.client.getZookeeperClient().getLastNegotiatedSessionTimeoutMs();
		return timeoutMs > 0 && !this.readInFlight
				&& remainingNanos() < TimeUnit.MILLISECONDS.toNanos(timeoutMs) / 2;
	}

	/** Until the next renewal is due, but at least every 100 ms, so a new session is noticed at once. */
	private long nextWakeNanos() {
		long poll = TimeUnit.MILLISECONDS.toNanos(100);
		int timeoutMs = this.client.getZookeeperClient().getLastNegotiatedSessionTimeoutMs();
		if (timeoutMs <= 0 || this.readInFlight) {
			return poll;
		}
		long renewIn = remainingNanos() - TimeUnit.MILLISECONDS.toNanos(timeoutMs) / 2;
		return Math.max(TimeUnit.MILLISECONDS.toNanos(1), Math.min(renewIn, poll));
	}

	/** Tell the listeners, on this thread, when the lease lapsed or became valid again. */
	private void announceChange() {
		boolean valid = isValid();
		if (valid == this.announcedValid) {
			return;
		}
		this.announcedValid = valid;
		for (Listener listener : this.listeners) {
			try {
				if (valid) {
					listener.granted();
				}
				else {
					listener.lapsed();
				}
			}
			catch (RuntimeException ex) {
				logger.warn("Session lease listener " + listener + " failed: " + ex);
			}
		}
	}

	private void readOnce() {
		if (this.readInFlight || !this.client.getZookeeperClient().isConnected()) {
			return;
		}
		Stamp stamp = beforeRequest();
		this.readInFlight = true;
		try {
			this.client.usingNamespace(null).checkExists().inBackground((client, event) -> {
				int rc = event.getResultCode();
				if (rc == KeeperException.Code.OK.intValue() || rc == KeeperException.Code.NONODE.intValue()) {
					replied(stamp);
				}
				this.readInFlight = false;
				signal();
			}).forPath("/");
		}
		catch (Exception ex) {
			this.readInFlight = false;
			logger.debug("Session lease renewal could not be sent: " + ex);
		}
	}

	private void signal() {
		this.lock.lock();
		try {
			this.changed.signalAll();
		}
		finally {
			this.lock.unlock();
		}
	}

	/** When a request was sent, and in which session, for {@link #replied(Stamp)}. */
	public record Stamp(long session, long sentNanos) {
	}

	/** Told when the lease lapses (in doubt) and when it is valid again after a lapse. */
	public interface Listener {

		/** The lease lapsed or the session changed: stop admitting and starting anything. */
		void lapsed();

		/** The lease is valid again (a reply came in the current session after a lapse). */
		default void granted() {
		}

	}

	private record Grant(long session, long untilNanos) {

		static final Grant NONE = new Grant(0, 0);

	}

}
