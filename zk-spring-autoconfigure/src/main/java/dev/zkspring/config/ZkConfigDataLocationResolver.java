package dev.zkspring.config;

import java.util.ArrayList;
import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.zookeeper.common.PathUtils;

import org.springframework.boot.context.config.ConfigDataLocation;
import org.springframework.boot.context.config.ConfigDataLocationResolver;
import org.springframework.boot.context.config.ConfigDataLocationResolverContext;
import org.springframework.boot.context.config.Profiles;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.logging.DeferredLogFactory;

import dev.zkspring.client.ZkStartupException;

/**
 * Lets {@code spring.config.import=zk:} load the config center's contexts the way Boot loads its own
 * files (before logging and profiles are settled, in Boot's order). {@code zk:} reads under
 * {@code zk.config.root}, {@code zk:/other} under {@code /other}, {@code zk:/a;/b} under both (the last
 * wins). Everything resolves once the profiles are known, so the contexts are the initializer's.
 * Registered in {@code META-INF/spring.factories}.
 */
public class ZkConfigDataLocationResolver implements ConfigDataLocationResolver<ZkConfigDataResource> {

	static final String PREFIX = "zk:";

	private final Log logger;

	/**
	 * Created by Boot.
	 * @param logs Boot's deferred logs, written once the logging system is initialised
	 */
	public ZkConfigDataLocationResolver(DeferredLogFactory logs) {
		this.logger = logs.getLog(ZkConfigDataLocationResolver.class);
	}

	@Override
	public boolean isResolvable(ConfigDataLocationResolverContext context, ConfigDataLocation location) {
		return location.hasPrefix(PREFIX);
	}

	@Override
	public List<ZkConfigDataResource> resolve(ConfigDataLocationResolverContext context, ConfigDataLocation location) {
		// the contexts depend on the active profiles: resolved once they are known
		return List.of();
	}

	@Override
	public List<ZkConfigDataResource> resolveProfileSpecific(ConfigDataLocationResolverContext context,
			ConfigDataLocation location, Profiles profiles) {
		Binder binder = context.getBinder();
		ConfigSettings settings = ZkConfigInitializer.settings(binder, ZkConfigDataLocationResolver.class.getClassLoader());
		if (settings == null) {
			this.logger.info("Ignoring " + location + ": zk.enabled or zk.config.enabled is false");
			return List.of();
		}
		String name = binder.bind("spring.application.name", String.class).orElse(null);
		ConfigContexts contexts = ConfigContexts.of(settings, name, profiles.getActive(), roots(location, settings));
		return List.of(new ZkConfigDataResource(settings, contexts, location.isOptional(), binder));
	}

	/** The roots a location names, lowest precedence first. */
	static List<String> roots(ConfigDataLocation location, ConfigSettings settings) {
		List<String> roots = new ArrayList<>();
		for (String part : location.getNonPrefixedValue(PREFIX).split(";", -1)) {
			String root = part.trim();
			if (root.startsWith(PREFIX)) {
				root = root.substring(PREFIX.length()).trim();
			}
			if (root.isEmpty()) {
				roots.add(settings.root());
				continue;
			}
			try {
				PathUtils.validatePath(root);
			}
			catch (IllegalArgumentException ex) {
				throw new ZkStartupException("The spring.config.import location '" + location + "' names '" + root
						+ "', which is not a znode path: " + ex.getMessage() + ".",
						"Write zk: (the root in zk.config.root), zk:/a-root, or several roots separated by ';' "
								+ "(zk:/a;/b). The ensemble comes from zk.connect, not from the location.");
			}
			roots.add(root);
		}
		return roots;
	}

}
