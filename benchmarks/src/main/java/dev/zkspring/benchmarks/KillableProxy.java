package dev.zkspring.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback TCP proxy in front of the ZooKeeper server. {@link #kill()} cuts every connection and
 * refuses new ones, so to the server the client behind it looks like a killed process: its session
 * stays until it times out.
 */
final class KillableProxy implements AutoCloseable {

	private final ServerSocket listener;

	private final int target;

	private final List<Socket> sockets = new CopyOnWriteArrayList<>();

	KillableProxy(int target) throws IOException {
		this.target = target;
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
		Thread thread = new Thread(() -> {
			byte[] buffer = new byte[8192];
			try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
				for (int n; (n = in.read(buffer)) >= 0;) {
					out.write(buffer, 0, n);
				}
			}
			catch (IOException ex) {
				// the other side went away
			}
			closeQuietly(from);
			closeQuietly(to);
		}, "bench-proxy-pipe");
		thread.setDaemon(true);
		thread.start();
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
