package dev.zkspring.apps.virtual;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.stereotype.Service;

import dev.zkspring.lock.ZkLock;
import dev.zkspring.lock.ZkLockContext;

/**
 * An application with {@code spring.threads.virtual.enabled=true} (Java 21+): its {@code @Async} work runs
 * on virtual threads, and takes a lock there.
 */
@SpringBootApplication
@EnableAsync
public class VirtualThreadsApplication {

	public static void main(String[] args) {
		SpringApplication.run(VirtualThreadsApplication.class, args);
	}

	/** Sells tickets one at a time across every instance, from whatever thread calls. */
	@Service
	public static class Tickets {

		private final AtomicInteger inside = new AtomicInteger();

		final AtomicInteger mostInside = new AtomicInteger();

		final List<String> sales = new CopyOnWriteArrayList<>();

		@ZkLock(key = "'tickets'")
		public void sell(String buyer) {
			this.mostInside.accumulateAndGet(this.inside.incrementAndGet(), Math::max);
			try {
				this.sales.add(ZkLockContext.current().getFencingToken() + " " + buyer + " " + Threads.describe());
			}
			finally {
				this.inside.decrementAndGet();
			}
		}

		public int mostInside() {
			return this.mostInside.get();
		}

		public List<String> sales() {
			return this.sales;
		}

	}

	/** Asks for tickets on the application's task executor (virtual threads). */
	@Service
	public static class Buyers {

		private final Tickets tickets;

		Buyers(Tickets tickets) {
			this.tickets = tickets;
		}

		@Async
		public CompletableFuture<Void> buy(String buyer) {
			this.tickets.sell(buyer);
			return CompletableFuture.completedFuture(null);
		}

	}

	/** Whether the current thread is virtual, asked without Java 21 API at compile time (the build targets 17). */
	static final class Threads {

		private Threads() {
		}

		static String describe() {
			try {
				return ((Boolean) Thread.class.getMethod("isVirtual").invoke(Thread.currentThread())) ? "virtual" : "platform";
			}
			catch (ReflectiveOperationException ex) {
				return "platform";
			}
		}

	}

}
