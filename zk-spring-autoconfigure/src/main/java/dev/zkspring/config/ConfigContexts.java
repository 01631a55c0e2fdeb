package dev.zkspring.config;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.apache.zookeeper.common.PathUtils;
import org.jspecify.annotations.Nullable;

import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;

import dev.zkspring.client.ZkStartupException;

/**
 * The context znodes one application reads, fixed at startup: {@code application},
 * {@code application,{profile}}, {@code {app}}, {@code {app},{profile}} under the root, lowest
 * precedence first; later active profiles win over earlier ones, as in Spring.
 * @param root the config root
 * @param name the application's context name, or the default context when it has none
 * @param profiles the active profiles
 * @param lowestFirst the context znodes, lowest precedence first
 */
record ConfigContexts(String root, String name, List<String> profiles, List<String> lowestFirst) {

	static ConfigContexts of(ConfigSettings config, Environment environment) {
		String root = root(config.root());
		String separator = config.profileSeparator();
		String defaultContext = config.defaultContext();
		String name = name(config, environment);
		List<String> profiles = Arrays.asList(environment.getActiveProfiles());
		Set<String> names = new LinkedHashSet<>();
		for (String context : (name != null) ? List.of(defaultContext, name) : List.of(defaultContext)) {
			names.add(context);
			profiles.forEach((profile) -> names.add(context + separator + profile));
		}
		List<String> znodes = new ArrayList<>();
		for (String context : names) {
			String znode = root.equals("/") ? "/" + context : root + "/" + context;
			validate(znode, "zk.config.name, zk.config.default-context, zk.config.profile-separator or the active profiles");
			znodes.add(znode);
		}
		return new ConfigContexts(root, (name != null) ? name : defaultContext, profiles, List.copyOf(znodes));
	}

	/** The highest precedence first, the order of a composite property source. */
	List<String> highestFirst() {
		List<String> reversed = new ArrayList<>(this.lowestFirst);
		Collections.reverse(reversed);
		return reversed;
	}

	boolean contains(String znode) {
		return this.lowestFirst.contains(znode);
	}

	private static @Nullable String name(ConfigSettings config, Environment environment) {
		String name = config.name();
		if (!StringUtils.hasText(name)) {
			name = environment.getProperty("spring.application.name");
		}
		return StringUtils.hasText(name) ? name.trim() : null;
	}

	private static String root(String root) {
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
