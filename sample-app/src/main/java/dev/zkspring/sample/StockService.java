package dev.zkspring.sample;

import org.springframework.stereotype.Service;

import dev.zkspring.lock.ZkLock;

/**
 * Deducts stock under a ZooKeeper lock per sku: read, check, write, with no database lock or atomic
 * update, so the lock is what keeps the quantity from going below zero across instances.
 */
@Service
public class StockService {

	private final StockStore store;

	StockService(StockStore store) {
		this.store = store;
	}

	/**
	 * Takes one item of a sku, if any is left.
	 * @param sku the item
	 * @return the quantity left after the deduction, or -1 when there was nothing to take
	 */
	@ZkLock(key = "'stock:' + #sku", waitTime = "${sample.stock.lock-wait:30s}")
	public int deduct(String sku) {
		Integer quantity = this.store.quantity(sku);
		if (quantity == null || quantity < 1) {
			return -1;
		}
		this.store.setQuantity(sku, quantity - 1);
		return quantity - 1;
	}

	/**
	 * Sets the quantity of a sku, under the same lock as deductions.
	 * @param sku the item
	 * @param quantity the new quantity
	 */
	@ZkLock(key = "'stock:' + #sku", waitTime = "${sample.stock.lock-wait:30s}")
	public void restock(String sku, int quantity) {
		this.store.setQuantity(sku, quantity);
	}

}
