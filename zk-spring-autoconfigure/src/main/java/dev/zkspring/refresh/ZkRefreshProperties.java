package dev.zkspring.refresh;

import org.springframework.boot.context.properties.ConfigurationProperties;

/** {@code zk.refresh.*}: rebinding of @RefreshScope beans when the configuration in ZooKeeper changes. */
@ConfigurationProperties(ZkRefreshProperties.PREFIX)
public class ZkRefreshProperties {

	/** The prefix of these properties. */
	public static final String PREFIX = "zk.refresh";

	/** Whether to rebind @RefreshScope beans in place, refusing changes that would break one. */
	private boolean enabled = true;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

}
