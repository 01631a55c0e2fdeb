package dev.zkspring.config;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.core.env.PropertySource;

/**
 * Document versions a {@link ZkConfigApplier} refused, so that each is reported once. Every reload
 * judges each context's latest document again (a change elsewhere may make it acceptable); a refused
 * document is replaced by the context's accepted version only for the rest of that reload, so one
 * bad document cannot hold back the changes of other contexts. Used by the refresher thread only.
 */
final class RefusedDocuments {

	/** By znode, the refused document: its version and content (a recreated znode starts at version 0 again). */
	private final Map<String, ZnodePropertySource> refused = new HashMap<>();

	/**
	 * Remember a refused document.
	 * @return whether it is newly refused, so the refusal is reported
	 */
	boolean refuse(ZnodePropertySource document) {
		ZnodePropertySource previous = this.refused.put(document.getZnode(), document);
		return previous == null || !same(previous, document);
	}

	/** Forget refusals of documents that are now in force, or whose znode is gone or has changed. */
	void settle(List<PropertySource<?>> latest) {
		this.refused.entrySet().removeIf((entry) -> {
			ZnodePropertySource document = documentOf(latest, entry.getKey());
			return document == null || !same(document, entry.getValue());
		});
	}

	/** Forget the refusal of a document that was accepted after all. */
	void accepted(List<PropertySource<?>> inForce) {
		this.refused.entrySet().removeIf((entry) -> {
			ZnodePropertySource document = documentOf(inForce, entry.getKey());
			return document != null && same(document, entry.getValue());
		});
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

	/** The sources with the znode's document replaced by its version in force, or left out when none is. */
	static List<PropertySource<?>> holdBack(List<PropertySource<?>> sources, String znode,
			List<PropertySource<?>> inForce) {
		ZnodePropertySource accepted = documentOf(inForce, znode);
		List<PropertySource<?>> result = new ArrayList<>(sources.size());
		for (PropertySource<?> source : sources) {
			if (source instanceof ZnodePropertySource document && document.getZnode().equals(znode)) {
				if (accepted != null) {
					result.add(accepted);
				}
				continue;
			}
			result.add(source);
		}
		return result;
	}

	/** Whether this very document (version and content) was refused. */
	boolean isRefused(ZnodePropertySource document) {
		ZnodePropertySource refused = this.refused.get(document.getZnode());
		return refused != null && same(refused, document);
	}

	static boolean same(ZnodePropertySource a, ZnodePropertySource b) {
		return a.getVersion() == b.getVersion() && a.getSource().equals(b.getSource())
				&& java.util.Objects.equals(a.getCandidate(), b.getCandidate());
	}

}
