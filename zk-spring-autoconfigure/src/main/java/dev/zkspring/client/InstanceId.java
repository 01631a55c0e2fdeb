package dev.zkspring.client;

import java.io.IOException;
import java.net.InetAddress;

import org.jspecify.annotations.Nullable;

import org.springframework.core.env.PropertyResolver;
import org.springframework.util.StringUtils;

/**
 * The one id an operator names an instance by: in the fleet view, in a canary's set of instances and as
 * the leader election's participant. {@code zk.leader.id} when set; otherwise host name,
 * {@code server.port} (when set and not 0) and process id, such as {@code app1.example.com:8080#4711}.
 * Worked out from what is known before any bean exists (never the port a web server picks later), so
 * the configuration loaded at startup and the fleet view agree on it; set {@code zk.leader.id} for an
 * id that stays the same across restarts.
 * @param value the id
 */
public record InstanceId(String value) {

	/** The property that names an instance. */
	public static final String PROPERTY = "zk.leader.id";

	/** The bean the config center registers with the id it loaded the configuration as. */
	public static final String BEAN_NAME = "zkInstanceId";

	/**
	 * The id of the instance these properties describe.
	 * @param properties where {@code zk.leader.id} and {@code server.port} are read
	 * @return {@code zk.leader.id}, or the generated id
	 */
	public static InstanceId resolve(PropertyResolver properties) {
		return of(properties.getProperty(PROPERTY), properties);
	}

	/**
	 * The id from a configured value, or the generated one when it has no text.
	 * @param configured {@code zk.leader.id} as bound
	 * @param properties where {@code server.port} is read
	 * @return the id
	 */
	public static InstanceId of(@Nullable String configured, PropertyResolver properties) {
		return new InstanceId(StringUtils.hasText(configured) ? configured.trim() : generated(properties));
	}

	/**
	 * The id used when {@code zk.leader.id} is not set: host name, {@code server.port} when set and not 0,
	 * and process id.
	 * @param properties where {@code server.port} is read
	 * @return the id
	 */
	public static String generated(PropertyResolver properties) {
		String host;
		try {
			host = InetAddress.getLocalHost().getHostName();
		}
		catch (IOException ex) {
			host = "localhost";
		}
		String port = properties.getProperty("server.port", "").trim();
		boolean fixedPort = !port.isEmpty() && !"0".equals(port) && !port.startsWith("-");
		return host + (fixedPort ? ":" + port : "") + "#" + ProcessHandle.current().pid();
	}

	@Override
	public String toString() {
		return this.value;
	}

}
