/**
 * The auto-configuration classes, nothing else: each capability's machinery, and the
 * {@code @ConfigurationProperties} class of its {@code zk.*} settings, live in its own package and are
 * wired from here.
 */
@NullMarked
package dev.zkspring.autoconfigure;

import org.jspecify.annotations.NullMarked;
