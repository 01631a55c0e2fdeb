package dev.zkspring.config;

import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationEvent;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * What the watcher tells the application about a reload: a refused change in one WARN line naming the
 * znode, its version and the key (never a value) and a {@link ZkConfigRejectedEvent}, once per refused
 * document version or per change refused as a whole; and any event whose outcome is settled, so that an
 * application listener that throws is logged as what it is.
 */
final class ChangeReports {

	private static final Log logger = LogFactory.getLog(ZkConfigInitializer.class);

	private final ConfigurableApplicationContext context;

	private final ConfigContexts contexts;

	private final RefusedDocuments refusedDocuments;

	/** The change last refused as a whole (no one document to blame), so a re-read of it is not reported again. */
	private @Nullable List<Object> refusedAsAWhole;

	ChangeReports(ConfigurableApplicationContext context, ConfigContexts contexts, RefusedDocuments refusedDocuments) {
		this.context = context;
		this.contexts = contexts;
		this.refusedDocuments = refusedDocuments;
	}

	/** A change was applied: a later refusal of the same change as a whole is news again. */
	void accepted() {
		this.refusedAsAWhole = null;
	}

	/** Log and publish a refusal, once per refused document version. */
	void refused(ZkConfigCandidate candidate, IsolatingApplier.Refusal refusal, @Nullable String znode,
			@Nullable ZnodePropertySource document) {
		String path = (znode != null) ? znode : this.contexts.root();
		if (document != null && !this.refusedDocuments.refuse(document)) {
			return;
		}
		if (document == null) {
			List<Object> signature = List.of(candidate.getZnodeVersions(), candidate.getChanges());
			if (signature.equals(this.refusedAsAWhole)) {
				// the same change again, read after a reconnection: refused and reported already
				return;
			}
			this.refusedAsAWhole = signature;
		}
		// a removed key is found where it was: report the version that removed it
		int version = candidate.getZnodeVersions().getOrDefault(path, -1);
		ZnodePropertySource.Candidate canary = (document != null) ? document.getCandidate() : null;
		if (canary != null) {
			// a canary's candidate is refused, not the base document: name the canary node
			path = canary.znode();
			version = canary.version();
		}
		String key = refusal.key();
		String target = refusal.target();
		logger.warn("Refused the configuration change of znode " + path + " (version " + version + "): "
				+ refusal.reason() + ((key != null) ? " (key '" + key + "')" : "")
				+ ((target != null) ? " (target " + target + ")" : "") + "; the current configuration stays in force");
		publish(new ZkConfigRejectedEvent(this.context, path, version, refusal.reason(), key, target),
				"the change stays refused");
	}

	/**
	 * Publish an event whose outcome is settled: an application listener that throws is logged as what it
	 * is (zk-spring's own listeners are ordered before the application's, so it cannot keep them from the event).
	 */
	void publish(ApplicationEvent event, String outcome) {
		try {
			this.context.publishEvent(event);
		}
		catch (RuntimeException ex) {
			logger.warn("A listener of " + event.getClass().getSimpleName() + " failed (" + ex.getClass().getName()
					+ "); " + outcome + " and the listeners after it missed the event", ex);
		}
	}

	/** The first keys of a change, never their values. */
	static String summary(List<ZkConfigChange> changes) {
		List<String> keys = changes.stream().limit(20).map(ZkConfigChange::toString).toList();
		return changes.size() + " key(s) " + keys + ((changes.size() > 20) ? " and more" : "");
	}

}
