package dev.zkspring.lock;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.ConcurrentLinkedDeque;

import org.jspecify.annotations.Nullable;

/**
 * The lock the current thread holds inside a {@code @ZkLock} method or a template body: its key, its
 * znode, a fencing token to hand to the resource it protects, and whether it is still held.
 */
public final class ZkLockContext {

	private static final ThreadLocal<Deque<ZkLockContext>> HELD = ThreadLocal.withInitial(ArrayDeque::new);

	private final String key;

	private final String path;

	private final ZkLock.Mode mode;

	final KeyLock keyLock;

	/** The turn this hold belongs to: it is held only while the turn is valid. */
	final Turn turn;

	final Thread thread;

	private volatile boolean lost;

	private volatile boolean released;

	private volatile @Nullable Long fencingToken;

	/** Told once the loss is reported (off the connection thread), for holds whose body is not a thread. */
	private volatile @Nullable Runnable lossListener;

	final Instant since = Instant.now();

	/** The instrumentation's holds, one per level of a reentrant hold, the innermost first. */
	final Deque<ZkLockInstrumentation.Hold> holds = new ConcurrentLinkedDeque<>();

	private int depth = 1;

	ZkLockContext(String key, String path, ZkLock.Mode mode, KeyLock keyLock, Turn turn) {
		this.key = key;
		this.path = path;
		this.mode = mode;
		this.keyLock = keyLock;
		this.turn = turn;
		this.thread = Thread.currentThread();
	}

	/**
	 * The innermost lock the current thread holds.
	 * @return the lock context
	 * @throws IllegalStateException when the thread holds no lock
	 */
	public static ZkLockContext current() {
		ZkLockContext context = HELD.get().peek();
		if (context == null) {
			throw new IllegalStateException("This thread holds no zk-spring lock; ZkLockContext.current() is only "
					+ "available inside a @ZkLock method or a ZkLockTemplate body.");
		}
		return context;
	}

	/** The key as the caller gave it (the evaluated SpEL for {@code @ZkLock}). */
	public String getKey() {
		return this.key;
	}

	/** The key's znode, under {@code zk.lock.root}. */
	public String getPath() {
		return this.path;
	}

	/** The mode the lock was taken in. */
	public ZkLock.Mode getMode() {
		return this.mode;
	}

	/**
	 * A number that strictly increases across successive holders of this key, in this JVM and across
	 * JVMs; give it to the protected resource so it can refuse writes from an older holder. Free for the
	 * first holder of a ZooKeeper turn; one round trip for a holder that took the lock over locally.
	 * @return the fencing token
	 * @throws ZkLockLostException when the lock is no longer held
	 * @throws ZkLockUnavailableException when the write for a fresh token fails
	 */
	public long getFencingToken() {
		Long token = this.fencingToken;
		if (token == null) {
			assertHeld();
			token = this.keyLock.fencingToken(this);
			this.fencingToken = token;
		}
		return token;
	}

	/** The fencing token if a caller asked for it already, without a round trip. */
	@Nullable Long knownFencingToken() {
		return this.fencingToken;
	}

	/**
	 * Whether the lock is still certainly held: false as soon as the connection is suspended, the
	 * session lost, the session lease lapsed (e.g. when the process resumes after a freeze, before any
	 * event) or the lock's node deleted. No round trip.
	 */
	public boolean isHeld() {
		return !this.lost && !this.released && this.turn.valid();
	}

	/**
	 * Fail unless the lock is still held; call it before an irreversible step.
	 * @throws ZkLockLostException when the lock is in doubt or gone
	 */
	public void assertHeld() {
		if (!isHeld()) {
			throw new ZkLockLostException(this.key, "Lock '" + this.key + "' (" + this.path + ") is "
					+ (this.released ? "released"
							: "no longer held: the ZooKeeper session is in doubt or gone, or the lock node was deleted")
					+ ".", null);
		}
	}

	@Override
	public String toString() {
		return "ZkLockContext[" + this.path + ", " + this.mode + (isHeld() ? ", held]" : ", not held]");
	}

	/** Whether the hold was reported lost (not merely released). */
	boolean wasLost() {
		return this.lost;
	}

	/** Mark the hold lost; true when it was held until now (so the loss is news). */
	synchronized boolean markLost() {
		boolean news = !this.lost && !this.released;
		this.lost = true;
		return news;
	}

	/** Run the listener when the hold is reported lost; at once when it already was. */
	void onLoss(Runnable listener) {
		this.lossListener = listener;
		if (this.lost) {
			listener.run();
		}
	}

	/** The loss of this hold is being reported. */
	void tellLost() {
		Runnable listener = this.lossListener;
		if (listener != null) {
			listener.run();
		}
	}

	/** Interrupt the holder, but only while it is still inside: never a thread that has moved on. */
	synchronized void interruptIfInside() {
		if (!this.released) {
			this.thread.interrupt();
		}
	}

	void reenter() {
		this.depth++;
		HELD.get().push(this);
	}

	/** Leave one level; true when the thread still holds the lock at an outer level. */
	boolean exit() {
		HELD.get().remove(this);
		this.depth--;
		if (this.depth > 0) {
			return true;
		}
		synchronized (this) {
			this.released = true;
		}
		return false;
	}

	void push() {
		HELD.get().push(this);
	}

	static @Nullable ZkLockContext heldByCurrentThread(LockRegistry registry, String path) {
		for (ZkLockContext context : HELD.get()) {
			if (context.keyLock.registry == registry && context.path.equals(path)) {
				return context;
			}
		}
		return null;
	}

}
