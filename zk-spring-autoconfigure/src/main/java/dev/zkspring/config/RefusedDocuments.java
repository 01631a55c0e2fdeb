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

	private final Map<String, Integer> versions = new HashMap<>();

	void refuse(String znode, int version) {
		this.versions.put(znode, version);
	}

	/** The version of a znode in the sources, or {@code null} when no source comes from it. */
	static @Nullable Integer versionOf(List<PropertySource<?>> sources, String znode) {
		for (PropertySource<?> source : sources) {
			if (source instanceof ZnodePropertySource document && document.getZnode().equals(znode)) {
				return document.getVersion();
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
		if (this.versions.isEmpty()) {
			return sources;
		}
		List<PropertySource<?>> result = new ArrayList<>(sources.size());
		for (PropertySource<?> source : sources) {
			if (source instanceof ZnodePropertySource document && this.versions.containsKey(document.getZnode())) {
				if (this.versions.get(document.getZnode()) == document.getVersion()) {
					acceptedSource(accepted, document.getZnode()).ifPresent(result::add);
					continue;
				}
				// the znode changed since it was refused: judge the new version afresh
				this.versions.remove(document.getZnode());
			}
			result.add(source);
		}
		return result;
	}

	private static Optional<PropertySource<?>> acceptedSource(List<PropertySource<?>> accepted, String znode) {
		return accepted.stream()
			.filter((source) -> source instanceof ZnodePropertySource document && document.getZnode().equals(znode))
			.findFirst();
	}

}
