/**
 * What operators see of zk-spring: the {@code zookeeper} health contributor, the
 * {@code zookeeper} actuator endpoint (read-only, but for job requests) and the Micrometer meters. Only the types the auto-configurations
 * create are public; what they read about the connection, the config center, locks and leadership is
 * package-private.
 */
@NullMarked
package dev.zkspring.actuate;

import org.jspecify.annotations.NullMarked;
