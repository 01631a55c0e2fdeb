package dev.zkspring.actuate;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.core.Ordered;
import org.springframework.core.PriorityOrdered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.PropertySource;

import dev.zkspring.config.ZkConfigChangedEvent;
import dev.zkspring.config.ZkConfigRejectedEvent;
import dev.zkspring.config.ZnodePropertySource;

/**
 * Remembers, per config context znode, when its keys last changed and the last document it refused,
 * so the health contributor and the endpoint can say which version runs and why a newer one does not.
 */
public final class ZkConfigActivity implements ApplicationListener<ApplicationEvent>, PriorityOrdered {

	private final ConfigurableEnvironment environment;

	private final Clock clock;

	private final Map<String, Instant> lastRefresh = new ConcurrentHashMap<>();

	private final Map<String, Integer> versions = new ConcurrentHashMap<>();

	private final Map<String, Rejection> lastRejection = new ConcurrentHashMap<>();

	/** Create the record of the config center's activity for the given environment. */
	public ZkConfigActivity(ConfigurableEnvironment environment) {
		this(environment, Clock.systemUTC());
	}

	ZkConfigActivity(ConfigurableEnvironment environment, Clock clock) {
		this.environment = environment;
		this.clock = clock;
		ZnodePropertySource.inForce(this.environment).forEach((source) -> this.versions.put(source.getZnode(), source.getVersion()));
	}

	@Override
	public void onApplicationEvent(ApplicationEvent event) {
		if (event instanceof ZkConfigChangedEvent changed) {
			Instant now = this.clock.instant();
			for (PropertySource<?> source : changed.getPropertySources()) {
				if (source instanceof ZnodePropertySource znode) {
					Integer previous = this.versions.put(znode.getZnode(), znode.getVersion());
					if (previous == null || previous != znode.getVersion()) {
						this.lastRefresh.put(znode.getZnode(), now);
					}
				}
			}
		}
		else if (event instanceof ZkConfigRejectedEvent rejected) {
			this.lastRejection.put(rejected.getZnode(), new Rejection(rejected.getVersion(), rejected.getReason(),
					rejected.getKey(), this.clock.instant()));
		}
	}

	@Override
	public boolean supportsAsyncExecution() {
		return false;
	}

	/** Before the application's listeners, so that one of theirs that throws cannot keep this from hearing of a change. */
	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}


	/** Each context's znode, version, last refresh and last rejection, for health and endpoint details. */
	List<Map<String, Object>> describeContexts() {
		List<Map<String, Object>> described = new ArrayList<>();
		for (ZnodePropertySource context : ZnodePropertySource.inForce(this.environment)) {
			Map<String, Object> details = new LinkedHashMap<>();
			details.put("znode", context.getZnode());
			details.put("version", context.getVersion());
			details.put("keys", context.getPropertyNames().length);
			Instant refreshed = this.lastRefresh.get(context.getZnode());
			if (refreshed != null) {
				details.put("lastRefresh", refreshed.toString());
			}
			Rejection rejection = this.lastRejection.get(context.getZnode());
			if (rejection != null) {
				details.put("lastRejection", rejection.describe());
			}
			described.add(details);
		}
		return described;
	}

	private record Rejection(int version, String reason, @Nullable String key, Instant at) {

		Map<String, Object> describe() {
			Map<String, Object> details = new LinkedHashMap<>();
			details.put("version", this.version);
			details.put("reason", this.reason);
			if (this.key != null) {
				details.put("key", this.key);
			}
			details.put("at", this.at.toString());
			return details;
		}

	}

}
