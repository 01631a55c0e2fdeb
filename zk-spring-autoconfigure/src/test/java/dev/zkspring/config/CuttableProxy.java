package dev.zkspring.config;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A loopback TCP proxy in front of one ZooKeeper server, so a test can take a client away without
 * touching its session: {@link #cut()} closes every connection and refuses new ones until
 * {@link #heal()}; the client then reconnects (same session if it is back within the timeout).
 */
final class CuttableProxy implements AutoCloseable {

	private final int target;

	private final ServerSocket server;

	private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();

	private volatile boolean cut;

	private volatile boolean closed;

	/** A proxy in front of the server at {@code hostAndPort} ({@code host:port}, the port is what counts). */
	static CuttableProxy to(String hostAndPort) throws IOException {
		return new CuttableProxy(Integer.parseInt(hostAndPort.substring(hostAndPort.lastIndexOf(':') + 1)));
	}

	CuttableProxy(int target) throws IOException {
		this.target = target;
		this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		Thread acceptor = new Thread(this::accept, "proxy-" + this.server.getLocalPort());
		acceptor.setDaemon(true);
		acceptor.start();
	}

	String connectString() {
		return "127.0.0.1:" + this.server.getLocalPort();
	}

	void cut() {
		this.cut = true;
		this.sockets.forEach(CuttableProxy::closeQuietly);
		this.sockets.clear();
	}

	void heal() {
		this.cut = false;
	}

	@Override
	public void close() {
		this.closed = true;
		closeQuietly(this.server);
		cut();
	}

	private void accept() {
		while (!this.closed) {
			try {
				Socket client = this.server.accept();
				// registered before the check: a cut either sees the socket or is seen by the check
				this.sockets.add(client);
				if (this.cut) {
					closeQuietly(client);
					continue;
				}
				Socket upstream = new Socket(InetAddress.getLoopbackAddress(), this.target);
				this.sockets.add(upstream);
				if (this.cut) {
					closeQuietly(client);
					closeQuietly(upstream);
					continue;
				}
				pump(client, upstream);
				pump(upstream, client);
			}
			catch (IOException ex) {
				// closing, or the server is down: the client retries
			}
		}
	}

	private void pump(Socket from, Socket to) {
		Thread pump = new Thread(() -> {
			byte[] buffer = new byte[64 * 1024];
			try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
				int read;
				while ((read = in.read(buffer)) >= 0 && !this.cut) {
					out.write(buffer, 0, read);
					out.flush();
				}
			}
			catch (IOException ex) {
				// cut, or the other side closed
			}
			finally {
				closeQuietly(from);
				closeQuietly(to);
			}
		}, "proxy-pump");
		pump.setDaemon(true);
		pump.start();
	}

	private static void closeQuietly(AutoCloseable closeable) {
		try {
			closeable.close();
		}
		catch (Exception ex) {
			// already closed
		}
	}

}
