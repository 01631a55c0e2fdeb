package dev.zkspring.docs.locks;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import dev.zkspring.lock.ZkLock;
import dev.zkspring.lock.ZkLockContext;

// docs/locks.md (docs check: DocsSnippetsTests).

// tag::stock-service[]
@Service
class StockService {

	@ZkLock(key = "'stock:' + #sku", waitTime = "3s")
	@Transactional
	public void deduct(String sku, int n) {
		long token = ZkLockContext.current().getFencingToken();   // optional, see below
		// ... read, change and write the stock of sku
	}

}
// end::stock-service[]
