package dev.zkspring.sample;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import dev.zkspring.config.ZkConfigRejectedEvent;

/** The last configuration document this instance refused (znode, version, reason naming keys; never a value). */
@Component
class LastRefusal {

	private volatile @Nullable Map<String, Object> last;

	@EventListener
	void refused(ZkConfigRejectedEvent event) {
		Map<String, Object> refusal = new LinkedHashMap<>();
		refusal.put("znode", event.getZnode());
		refusal.put("version", event.getVersion());
		refusal.put("reason", event.getReason() + ((event.getKey() != null) ? " (key '" + event.getKey() + "')" : ""));
		refusal.put("at", Instant.ofEpochMilli(event.getTimestamp()).toString());
		this.last = refusal;
	}

	@Nullable Map<String, Object> get() {
		return this.last;
	}

}
