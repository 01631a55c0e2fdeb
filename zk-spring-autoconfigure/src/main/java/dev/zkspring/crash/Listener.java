package dev.zkspring.crash;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * This instance's listen socket: it accepts the peers that watch it and holds their connections open,
 * sending nothing (idle cost: one socket each, no bytes). Its only message is its end: when the process
 * dies, the kernel closes every connection and refuses new ones. One selector thread, which also closes
 * the connections a watcher closed.
 */
final class Listener {

	private static final Log logger = LogFactory.getLog(Listener.class);

	private final AtomicInteger connections = new AtomicInteger();

	private final java.util.Set<SocketChannel> peers = java.util.concurrent.ConcurrentHashMap.newKeySet();

	private @Nullable ServerSocketChannel server;

	private @Nullable Selector selector;

	private @Nullable Thread thread;

	/** Bind and start accepting; the bound address (the port chosen when 0 was asked for). */
	synchronized InetSocketAddress start(InetSocketAddress bind) throws IOException {
		ServerSocketChannel channel = ServerSocketChannel.open();
		try {
			channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
			channel.bind(bind, 128);
			channel.configureBlocking(false);
			Selector opened = Selector.open();
			channel.register(opened, SelectionKey.OP_ACCEPT);
			this.server = channel;
			this.selector = opened;
		}
		catch (IOException ex) {
			channel.close();
			throw ex;
		}
		Thread loop = new Thread(() -> run(this.selector), "zk-crash-listener");
		loop.setDaemon(true);
		this.thread = loop;
		loop.start();
		return (InetSocketAddress) channel.getLocalAddress();
	}

	/** Peers connected now. */
	int connections() {
		return this.connections.get();
	}

	boolean isRunning() {
		return this.server != null;
	}

	/** Close the listen socket and every peer's connection; a peer then finds its reconnects refused. */
	synchronized void stop() {
		Selector current = this.selector;
		ServerSocketChannel channel = this.server;
		this.selector = null;
		this.server = null;
		if (current == null || channel == null) {
			return;
		}
		close(channel);
		try {
			current.close();
		}
		catch (IOException ex) {
			logger.debug("Closing the crash detection listener failed", ex);
		}
		Thread loop = this.thread;
		if (loop != null) {
			try {
				loop.join(1_000);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
		this.peers.forEach(Listener::close);
		this.peers.clear();
		this.connections.set(0);
	}

	private static void close(java.nio.channels.Channel channel) {
		try {
			channel.close();
		}
		catch (IOException ex) {
			// closing anyway
		}
	}

	private void run(@Nullable Selector selector) {
		if (selector == null) {
			return;
		}
		ByteBuffer buffer = ByteBuffer.allocate(64);
		while (selector.isOpen()) {
			try {
				selector.select();
				for (SelectionKey key : selector.selectedKeys()) {
					if (!key.isValid()) {
						continue;
					}
					if (key.isAcceptable()) {
						SocketChannel peer = ((ServerSocketChannel) key.channel()).accept();
						if (peer != null) {
							peer.configureBlocking(false);
							peer.register(selector, SelectionKey.OP_READ);
							this.peers.add(peer);
							this.connections.incrementAndGet();
						}
					}
					else if (key.isReadable()) {
						SocketChannel peer = (SocketChannel) key.channel();
						buffer.clear();
						int read;
						try {
							read = peer.read(buffer);
						}
						catch (IOException ex) {
							read = -1;
						}
						if (read < 0) {
							// the watcher went away
							key.cancel();
							peer.close();
							if (this.peers.remove(peer)) {
								this.connections.decrementAndGet();
							}
						}
					}
				}
				selector.selectedKeys().clear();
			}
			catch (IOException | RuntimeException ex) {
				if (!selector.isOpen()) {
					return;
				}
				logger.debug("Crash detection listener: " + ex);
			}
		}
	}

}
