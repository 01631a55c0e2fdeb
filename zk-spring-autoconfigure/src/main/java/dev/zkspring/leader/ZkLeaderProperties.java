package dev.zkspring.leader;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/** {@code zk.leader.*}: leader election among the instances of one application (a Curator leader latch), and leader groups. */
@ConfigurationProperties(ZkLeaderProperties.PREFIX)
public class ZkLeaderProperties {

	/** The prefix of these properties. */
	public static final String PREFIX = "zk.leader";

	/** Whether this instance takes part in leader election; unset means only where something needs a leader (leader-gated Quartz jobs, @LeaderOnly methods). */
	private @Nullable Boolean enabled;

	/** Path under which each group has its election node. */
	private String root = "/leader";

	/** Election group, one node name; unset means spring.application.name. */
	private @Nullable String group;

	/** This instance's id in the election, fleet view and canary sets; set it for one that stays across restarts. */
	private @Nullable String id;

	/** How long a stopping leader waits for running jobs before it releases leadership. */
	private Duration drainTimeout = Duration.ofSeconds(30);

	/** How long a new leader waits before acting when its predecessor crashed or lost its session; opt-in for in-flight work. */
	private Duration takeoverDelay = Duration.ZERO;

	/** Named leader groups, each with an election of its own, listing the Quartz job names its leader runs. */
	private Map<String, List<String>> groups = new LinkedHashMap<>();

	/** How many leader groups an instance leads at most while another participant leads fewer; unset means groups stay where they were won. */
	private @Nullable Integer maxGroups;

	/** How long an instance keeps a leader group it took before it may hand it over to balance the groups. */
	private Duration rebalanceHold = Duration.ofSeconds(30);

	public Map<String, List<String>> getGroups() {
		return this.groups;
	}

	public void setGroups(Map<String, List<String>> groups) {
		this.groups = groups;
	}

	public @Nullable Integer getMaxGroups() {
		return this.maxGroups;
	}

	public void setMaxGroups(@Nullable Integer maxGroups) {
		this.maxGroups = maxGroups;
	}

	public Duration getRebalanceHold() {
		return this.rebalanceHold;
	}

	public void setRebalanceHold(Duration rebalanceHold) {
		this.rebalanceHold = rebalanceHold;
	}

	public @Nullable Boolean getEnabled() {
		return this.enabled;
	}

	public void setEnabled(@Nullable Boolean enabled) {
		this.enabled = enabled;
	}

	public String getRoot() {
		return this.root;
	}

	public void setRoot(String root) {
		this.root = root;
	}

	public @Nullable String getGroup() {
		return this.group;
	}

	public void setGroup(@Nullable String group) {
		this.group = group;
	}

	public @Nullable String getId() {
		return this.id;
	}

	public void setId(@Nullable String id) {
		this.id = id;
	}

	public Duration getDrainTimeout() {
		return this.drainTimeout;
	}

	public void setDrainTimeout(Duration drainTimeout) {
		this.drainTimeout = drainTimeout;
	}

	public Duration getTakeoverDelay() {
		return this.takeoverDelay;
	}

	public void setTakeoverDelay(Duration takeoverDelay) {
		this.takeoverDelay = takeoverDelay;
	}

}
