package dev.zkspring.config;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import org.springframework.core.env.PropertySource;

/**
 * Document versions a {@link ZkConfigApplier} refused. Until its znode changes again, a refused
 * version is replaced by the context's accepted version, so one bad document cannot hold back the
 * changes of other contexts, nor come back as a "last good" version when a later read fails.
 * Used by the refresher thread only.
 */
final class RefusedDocuments {

	/** By znode, the refused document: its version and content (a recreated znode starts at version 0 again). */
	private final Map<String, ZnodePropertySource> refused = new HashMap<>();

	void refuse(ZnodePropertySource document) {
		this.refused.put(document.getZnode(), document);
	}

	/** The document of a znode in the sources, or {@code null} when no source comes from it. */
	static @Nullable ZnodePropertySource documentOf(List<PropertySource<?>> sources, String znode) {
		for (PropertySource<?> source : sources) {
			if (source instanceof ZnodePropertySource document && document.getZnode().equals(znode)) {
				return document;
			}
		}
		return null;
	}

	/**
	 * The sources with each refused document version replaced by the context's accepted source, or
	 * left out when the context had none.
	 * @param sources what the locators found
	 * @param accepted the sources in force
	 */
	List<PropertySource<?>> holdBack(List<PropertySource<?>> sources, List<PropertySource<?>> accepted) {
		if (this.refused.isEmpty()) {
			return sources;
		}
		// a znode that is gone is judged afresh when it comes back
		this.refused.keySet().removeIf((znode) -> documentOf(sources, znode) == null);
		List<PropertySource<?>> result = new ArrayList<>(sources.size());
		for (PropertySource<?> source : sources) {
			if (source instanceof ZnodePropertySource document && this.refused.containsKey(document.getZnode())) {
				if (isRefused(document)) {
					acceptedSource(accepted, document.getZnode()).ifPresent(result::add);
					continue;
				}
				// the znode changed since it was refused: judge the new document afresh
				this.refused.remove(document.getZnode());
			}
			result.add(source);
		}
		return result;
	}

	private boolean isRefused(ZnodePropertySource document) {
		ZnodePropertySource refused = this.refused.get(document.getZnode());
		return refused.getVersion() == document.getVersion() && refused.getSource().equals(document.getSource());
	}

	private static Optional<PropertySource<?>> acceptedSource(List<PropertySource<?>> accepted, String znode) {
		return accepted.stream()
			.filter((source) -> source instanceof ZnodePropertySource document && document.getZnode().equals(znode))
			.findFirst();
	}

}
