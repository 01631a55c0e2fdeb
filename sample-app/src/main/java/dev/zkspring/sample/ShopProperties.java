package dev.zkspring.sample;

import org.springframework.boot.context.properties.ConfigurationProperties;

import dev.zkspring.refresh.RefreshScope;

/** {@code sample.shop.*}, bound again whenever a document in ZooKeeper changes one of them. */
@RefreshScope
@ConfigurationProperties("sample.shop")
public class ShopProperties {

	/** Line shown at the top of the status page. */
	private String banner = "";

	/** Most items one order may take (shown only; the demo does not enforce it). */
	private int maxPerOrder;

	/** @return the banner */
	public String getBanner() {
		return this.banner;
	}

	/** @param banner the banner */
	public void setBanner(String banner) {
		this.banner = banner;
	}

	/** @return the most items per order */
	public int getMaxPerOrder() {
		return this.maxPerOrder;
	}

	/** @param maxPerOrder the most items per order */
	public void setMaxPerOrder(int maxPerOrder) {
		this.maxPerOrder = maxPerOrder;
	}

}
