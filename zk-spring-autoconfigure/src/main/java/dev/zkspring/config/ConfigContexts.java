package dev.zkspring.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.common.PathUtils;
import org.jspecify.annotations.Nullable;

import org.springframework.util.StringUtils;

import dev.zkspring.client.ZkStartupException;

/**
 * The context znodes one application reads, fixed at startup: {@code application},
 * {@code application,{profile}}, {@code {app}}, {@code {app},{profile}} under the root, lowest
 * precedence first; later active profiles win over earlier ones, as in Spring. Several roots (from
 * {@code spring.config.import=zk:/a;/b}) give each root's contexts in turn, the last root's highest.
 * @param root the config root (several are joined with {@code ;})
 * @param name the application's context name, or the default context when it has none
 * @param profiles the active profiles
 * @param lowestFirst the context znodes, lowest precedence first
 */
record ConfigContexts(String root, String name, List<String> profiles, List<String> lowestFirst) {

	/**
	 * The contexts of one application under {@code zk.config.root}.
	 * @param config the settings
	 * @param applicationName {@code spring.application.name}, if any
	 * @param profiles the active profiles, in activation order
	 */
	static ConfigContexts of(ConfigSettings config, @Nullable String applicationName, List<String> profiles) {
		return of(config, applicationName, profiles, List.of(config.root()));
	}

	/**
	 * The contexts of one application under several roots, each root's contexts above the previous one's.
	 * @param config the settings
	 * @param applicationName {@code spring.application.name}, if any
	 * @param profiles the active profiles, in activation order
	 * @param roots the config roots, lowest precedence first
	 */
	static ConfigContexts of(ConfigSettings config, @Nullable String applicationName, List<String> profiles,
			List<String> roots) {
		List<String> normalized = roots.stream().map(ConfigContexts::root).distinct().toList();
		List<String> znodes = new ArrayList<>();
		String name = name(config, applicationName);
		normalized.forEach((root) -> znodes.addAll(contexts(config, root, name, profiles)));
		return new ConfigContexts(String.join(";", normalized), (name != null) ? name : config.defaultContext(),
				List.copyOf(profiles), List.copyOf(znodes));
	}

	private static List<String> contexts(ConfigSettings config, String root, @Nullable String name,
			List<String> profiles) {
		String separator = config.profileSeparator();
		String defaultContext = config.defaultContext();
		Set<String> names = new LinkedHashSet<>();
		for (String context : (name != null) ? List.of(defaultContext, name) : List.of(defaultContext)) {
			names.add(context);
			profiles.forEach((profile) -> names.add(context + separator + profile));
		}
		List<String> znodes = new ArrayList<>();
		for (String context : names) {
			String znode = znode(root, context);
			validate(znode, "zk.config.name, zk.config.default-context, zk.config.profile-separator or the active profiles");
			znodes.add(znode);
		}
		return znodes;
	}

	/** The znode of one context under a normalized root. */
	static String znode(String root, String context) {
		return root.equals("/") ? "/" + context : root + "/" + context;
	}

	/** The roots watched: each context znode's parent, once. */
	List<String> roots() {
		return this.lowestFirst.stream().map((znode) -> ZKPaths.getPathAndNode(znode).getPath()).distinct().toList();
	}

	/** The highest precedence first, the order of a composite property source. */
	List<String> highestFirst() {
		List<String> reversed = new ArrayList<>(this.lowestFirst);
		Collections.reverse(reversed);
		return reversed;
	}

	/**
	 * The canary node of a context znode ({@link ConfigLayout#canaryNode}); {@code null} under the root
	 * {@code /}, which leaves no place for one.
	 */
	static @Nullable String canaryNode(String znode) {
		ZKPaths.PathAndNode parts = ZKPaths.getPathAndNode(znode);
		return "/".equals(parts.getPath()) ? null : ConfigLayout.canaryNode(parts.getPath(), parts.getNode());
	}

	/** The canary roots watched: one beside each root that has one. */
	List<String> canaryRoots() {
		return roots().stream().filter((root) -> !"/".equals(root)).map(ConfigLayout::canaryRoot).toList();
	}

	boolean contains(String znode) {
		return this.lowestFirst.contains(znode);
	}

	private static @Nullable String name(ConfigSettings config, @Nullable String applicationName) {
		String name = config.name();
		if (!StringUtils.hasText(name)) {
			name = applicationName;
		}
		return StringUtils.hasText(name) ? name.trim() : null;
	}

	static String root(String root) {
		if (!StringUtils.hasText(root)) {
			throw new ZkStartupException("zk.config.root is empty.", "Set zk.config.root to a znode path such as /config.");
		}
		String normalized = root.startsWith("/") ? root : "/" + root;
		if (normalized.length() > 1 && normalized.endsWith("/")) {
			normalized = normalized.substring(0, normalized.length() - 1);
		}
		validate(normalized, "zk.config.root");
		return normalized;
	}

	private static void validate(String znode, String properties) {
		try {
			PathUtils.validatePath(znode);
		}
		catch (IllegalArgumentException ex) {
			throw new ZkStartupException("The config context znode '" + znode + "' is not a valid path: "
					+ ex.getMessage() + ".", "Change " + properties + " so that every context is a valid znode name.");
		}
	}

}
