package dev.zkspring.docs.locks;

import java.util.concurrent.CompletableFuture;

import reactor.core.publisher.Mono;

import dev.zkspring.lock.ZkLock;
import dev.zkspring.lock.ZkLockContext;
import dev.zkspring.lock.ZkLockReactorContext;

/** docs/locks.md, reactive and asynchronous methods (docs check: DocsSnippetsTests). */
class ReactiveSnippets {

	interface Stock {

		Mono<Integer> reserve(String sku, int n, long fencingToken);

		CompletableFuture<Integer> count(String sku);

	}

	// tag::reactive[]
	static class StockService {

		private final Stock stock;

		StockService(Stock stock) {
			this.stock = stock;
		}

		@ZkLock(key = "'stock:' + #sku", waitTime = "3s")  // taken when the Mono is subscribed
		public Mono<Integer> reserve(String sku, int n) {
			return ZkLockReactorContext.current()              // the hold, from the Reactor context
				.flatMap((lock) -> this.stock.reserve(sku, n, lock.getFencingToken()));
		}

		@ZkLock(key = "'stock:' + #sku", onBusy = ZkLock.OnBusy.SKIP)  // busy: completes with null
		public CompletableFuture<Integer> count(String sku) {
			return this.stock.count(sku);                        // released when this future completes
		}

	}
	// end::reactive[]

	Long token(reactor.util.context.ContextView view) {
		return ZkLockReactorContext.from(view).map(ZkLockContext::getFencingToken).orElse(null);
	}

}
