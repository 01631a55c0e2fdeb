package dev.zkspring.test.shop;

import org.springframework.stereotype.Service;

import dev.zkspring.leader.LeaderOnly;
import dev.zkspring.lock.ZkLock;
import dev.zkspring.lock.ZkLockContext;

/** Reserves stock under a lock per item, and reports on the leader only. */
@Service
public class Stock {

	/** Runs under the item's lock; returns the lock's znode path, to show it was held. */
	@ZkLock(key = "'stock:' + #sku", waitTime = "2s")
	public String reserve(String sku) {
		ZkLockContext.current().assertHeld();
		return ZkLockContext.current().getPath();
	}

	@LeaderOnly
	public String report() {
		return "report";
	}

}
