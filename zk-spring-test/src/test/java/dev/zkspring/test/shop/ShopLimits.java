package dev.zkspring.test.shop;

import org.springframework.boot.context.properties.ConfigurationProperties;

import dev.zkspring.refresh.RefreshScope;

/** Limits the shop reads from ZooKeeper; a change that does not bind (a non-number) is refused. */
@RefreshScope
@ConfigurationProperties("shop.limits")
public class ShopLimits {

	private int max = 1;

	public int getMax() {
		return this.max;
	}

	public void setMax(int max) {
		this.max = max;
	}

}
