package dev.zkspring.reliability;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A loopback TCP proxy between one workload JVM and one ZooKeeper server, so the campaign can partition
 * that client without root: while cut, bytes are neither read nor forwarded (the client's session goes
 * quiet, as behind a dropped route) and new connections hang; on heal every connection that lived
 * through the cut is closed, as a connection across a real partition would be dead by then.
 */
final class Link implements AutoCloseable {

	private final int target;

	private final ServerSocket server;

	private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();

	private final Object gate = new Object();

	private volatile boolean cut;

	private volatile boolean closed;

	Link(int target) throws IOException {
		this.target = target;
		this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		Thread acceptor = new Thread(this::accept, "link-" + this.server.getLocalPort());
		acceptor.setDaemon(true);
		acceptor.start();
	}

	int port() {
		return this.server.getLocalPort();
	}

	void cut() {
		this.cut = true;
	}

	void heal() {
		synchronized (this.gate) {
			this.cut = false;
			for (Socket socket : this.sockets) {
				closeQuietly(socket);
			}
			this.sockets.clear();
			this.gate.notifyAll();
		}
	}

	@Override
	public void close() {
		this.closed = true;
		closeQuietly(this.server);
		heal();
	}

	private void accept() {
		while (!this.closed) {
			try {
				Socket client = this.server.accept();
				client.setTcpNoDelay(true);
				this.sockets.add(client);
				Thread opener = new Thread(() -> open(client), "link-open");
				opener.setDaemon(true);
				opener.start();
			}
			catch (IOException ex) {
				if (this.closed) {
					return;
				}
			}
		}
	}

	private void open(Socket client) {
		if (!awaitOpen()) {
			closeQuietly(client);
			return;
		}
		try {
			Socket upstream = new Socket(InetAddress.getLoopbackAddress(), this.target);
			upstream.setTcpNoDelay(true);
			this.sockets.add(upstream);
			pump(client, upstream);
			pump(upstream, client);
		}
		catch (IOException ex) {
			closeQuietly(client);
		}
	}

	private void pump(Socket from, Socket to) {
		Thread pump = new Thread(() -> {
			byte[] buffer = new byte[16 * 1024];
			try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
				int read;
				while ((read = in.read(buffer)) >= 0) {
					if (!awaitOpen()) {
						break;
					}
					out.write(buffer, 0, read);
					out.flush();
				}
			}
			catch (IOException ex) {
				// the other side closed, or heal() closed both
			}
			finally {
				closeQuietly(from);
				closeQuietly(to);
			}
		}, "link-pump");
		pump.setDaemon(true);
		pump.start();
	}

	/** Wait while cut; false when the connection must be dropped (it lived through a cut, or closing). */
	private boolean awaitOpen() {
		if (!this.cut) {
			return !this.closed;
		}
		synchronized (this.gate) {
			while (this.cut && !this.closed) {
				try {
					this.gate.wait();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					return false;
				}
			}
		}
		return false;
	}

	private static void closeQuietly(AutoCloseable closeable) {
		try {
			closeable.close();
		}
		catch (Exception ex) {
			// closing anyway
		}
	}

}
