package dev.zkspring.fleet;

import org.springframework.boot.context.properties.ConfigurationProperties;

/** {@code zk.fleet.*}: each instance publishes its state in an ephemeral node under one path per application. */
@ConfigurationProperties(ZkFleetProperties.PREFIX)
public class ZkFleetProperties {

	/** The prefix of these properties. */
	public static final String PREFIX = "zk.fleet";

	/** Whether this instance publishes its state (applied configuration, leadership, held keys) for the fleet view. */
	private boolean enabled = true;

	/** Path under which each application has its fleet node per instance, {root}/{spring.application.name}/{instance id}. */
	private String root = "/fleet";

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public String getRoot() {
		return this.root;
	}

	public void setRoot(String root) {
		this.root = root;
	}

}
