package dev.zkspring.lock;

import java.io.BufferedReader;
import java.io.FileWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

import static org.awaitility.Awaitility.await;

/**
 * The JVM that is frozen in {@link LockFreezeMultiProcessTests}, started from the test classpath: one
 * thread holds the key, {@code waiters} more queue for it locally, then it prints {@code READY <negotiated
 * session timeout>}. The holder leaves when a line arrives on stdin. Journal lines (wall-clock ms):
 * {@code start who ms}, {@code enter who ms token}, {@code exit who ms}, {@code resumed who ms isHeld},
 * {@code fail who ms exception}. Arguments: connect string, journal file, session timeout (ms), key,
 * waiters, wait of each waiter (ms).
 */
public final class FrozenLockMain {

	private static Writer journal;

	private FrozenLockMain() {
	}

	public static void main(String[] args) throws Exception {
		journal = new FileWriter(args[1], StandardCharsets.UTF_8, true);
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(args[0])
			.sessionTimeoutMs(Integer.parseInt(args[2]))
			.connectionTimeoutMs(2_000)
			.retryPolicy(new ExponentialBackoffRetry(100, 3))
			.build();
		client.start();
		client.blockUntilConnected();
		String key = args[3];
		int waiters = Integer.parseInt(args[4]);
		Duration wait = Duration.ofMillis(Long.parseLong(args[5]));
		LockTestSupport jvm = new LockTestSupport(client);
		CountDownLatch release = new CountDownLatch(1);
		CountDownLatch inside = new CountDownLatch(1);
		Thread holder = new Thread(() -> run(jvm, key, "frozen:holder", wait, () -> {
			inside.countDown();
			release.await();
			write("resumed frozen:holder " + System.currentTimeMillis() + " " + ZkLockContext.current().isHeld());
		}));
		holder.start();
		inside.await();
		for (int i = 0; i < waiters; i++) {
			new Thread(() -> run(jvm, key, "frozen:" + Thread.currentThread().getName(), wait, () -> {
			})).start();
			int queued = i + 1;
			await().atMost(Duration.ofSeconds(10)).until(() -> jvm.template.registry().waiting(key) == queued);
		}
		System.out.println("READY " + client.getZookeeperClient().getLastNegotiatedSessionTimeoutMs());
		System.out.flush();
		new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
		release.countDown();
		holder.join();
		Thread.sleep(Long.MAX_VALUE);
	}

	private static void run(LockTestSupport jvm, String key, String who, Duration wait, Body body) {
		write("start " + who + " " + System.currentTimeMillis());
		try {
			jvm.template.execute(key, wait, () -> {
				write("enter " + who + " " + System.currentTimeMillis() + " " + ZkLockContext.current().getFencingToken());
				body.run();
				write("exit " + who + " " + System.currentTimeMillis());
				return null;
			});
		}
		catch (RuntimeException ex) {
			write("fail " + who + " " + System.currentTimeMillis() + " " + ex.getClass().getSimpleName());
		}
	}

	static synchronized void write(String line) {
		try {
			journal.write(line + "\n");
			journal.flush();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	@FunctionalInterface
	interface Body {

		void run() throws Exception;

	}

}
