package dev.zkspring.docs.locks;

import java.time.Duration;

import dev.zkspring.lock.ZkLock;
import dev.zkspring.lock.ZkLockResult;
import dev.zkspring.lock.ZkLockTemplate;

/** docs/locks.md, programmatic use (docs check: DocsSnippetsTests). */
class TemplateSnippets {

	interface Stock {

		int reserve(String sku, int n);

	}

	record Report(String text) {
	}

	void use(ZkLockTemplate template, Stock stock, String sku, int n) {
		// tag::template[]
		int left = template.execute("stock:" + sku, Duration.ofSeconds(3), () -> stock.reserve(sku, n));  // throws when busy
		ZkLockResult<Report> result = template.tryExecute("report", ZkLock.Mode.MUTEX, Duration.ZERO, this::build);
		if (result.isBusy()) { /* someone else had the key */ } else { Report report = result.get(); /* may be null */ }
		// checked exceptions of the body come back wrapped in UndeclaredThrowableException
		// end::template[]
	}

	Report build() {
		return new Report("built");
	}

}
