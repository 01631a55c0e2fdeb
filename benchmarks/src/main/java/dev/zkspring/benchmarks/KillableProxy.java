package dev.zkspring.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * A loopback TCP proxy in front of the ZooKeeper server. {@link #kill()} cuts every connection and
 * refuses new ones, so to the server the client behind it looks like a killed process: its session
 * stays until it times out. With a delay, every chunk of bytes reaches the other side that long after
 * it was read, in each direction, without holding back the chunks read after it (a LAN-like link:
 * requests sent back to back still overlap).
 */
final class KillableProxy implements AutoCloseable {

	private final ServerSocket listener;

	private final int target;

	private final List<Socket> sockets = new CopyOnWriteArrayList<>();

	private final long delayNanos;

	KillableProxy(int target) throws IOException {
		this(target, 0);
	}

	KillableProxy(int target, long delayNanos) throws IOException {
		this.target = target;
		this.delayNanos = delayNanos;
		this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		Thread acceptor = new Thread(this::accept, "bench-proxy");
		acceptor.setDaemon(true);
		acceptor.start();
	}

	String connectString() {
		return "127.0.0.1:" + this.listener.getLocalPort();
	}

	private void accept() {
		while (!this.listener.isClosed()) {
			try {
				Socket client = this.listener.accept();
				Socket server = new Socket(InetAddress.getLoopbackAddress(), this.target);
				client.setTcpNoDelay(true);
				server.setTcpNoDelay(true);
				this.sockets.add(client);
				this.sockets.add(server);
				pipe(client, server);
				pipe(server, client);
			}
			catch (IOException ex) {
				// closed by kill(), or one connection failed: the client retries
			}
		}
	}

	private void pipe(Socket from, Socket to) {
		if (this.delayNanos == 0) {
			daemon("bench-proxy-pipe", () -> {
				try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
					in.transferTo(out);
				}
				catch (IOException ex) {
					// the other side went away
				}
				closeQuietly(from);
				closeQuietly(to);
			});
			return;
		}
		BlockingQueue<Chunk> due = new LinkedBlockingQueue<>();
		daemon("bench-proxy-pipe", () -> {
			byte[] buffer = new byte[8192];
			try (InputStream in = from.getInputStream()) {
				for (int n; (n = in.read(buffer)) >= 0;) {
					due.add(new Chunk(System.nanoTime() + this.delayNanos, Arrays.copyOf(buffer, n)));
				}
			}
			catch (IOException ex) {
				// the other side went away
			}
			due.add(Chunk.END);
		});
		daemon("bench-proxy-delay", () -> {
			forwardWhenDue(due, to);
			closeQuietly(from);
			closeQuietly(to);
		});
	}

	private static void forwardWhenDue(BlockingQueue<Chunk> due, Socket to) {
		try {
			OutputStream out = to.getOutputStream();
			for (Chunk chunk = due.take(); chunk != Chunk.END; chunk = due.take()) {
				for (long wait; (wait = chunk.at() - System.nanoTime()) > 0;) {
					LockSupport.parkNanos(wait);
				}
				out.write(chunk.bytes());
			}
		}
		catch (IOException | InterruptedException ex) {
			// the other side went away, or the proxy was killed
		}
	}

	private static void daemon(String name, Runnable body) {
		Thread thread = new Thread(body, name);
		thread.setDaemon(true);
		thread.start();
	}

	private record Chunk(long at, byte[] bytes) {

		static final Chunk END = new Chunk(0, new byte[0]);

	}

	/** Cut every connection and refuse new ones, as a killed process would. */
	void kill() {
		closeQuietly(this.listener);
		this.sockets.forEach(KillableProxy::closeQuietly);
	}

	@Override
	public void close() {
		kill();
	}

	private static void closeQuietly(AutoCloseable closeable) {
		try {
			closeable.close();
		}
		catch (Exception ex) {
			// nothing left to do
		}
	}

}
