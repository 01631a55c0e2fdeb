/**
 * What operators see of zk-spring: the {@code zookeeper} health contributor and what it reads about
 * the connection, the config center's contexts and the leadership. Only the types the auto-configuration
 * creates are public; the rest is package-private machinery.
 */
@NullMarked
package dev.zkspring.actuate;

import org.jspecify.annotations.NullMarked;
