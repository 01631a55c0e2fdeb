/**
 * The opt-in in-process ZooKeeper server ({@code zk.embedded.enabled=true}) for development, demos
 * and a first run with no ensemble installed. Never started implicitly, never calls {@code System.exit}.
 * {@link dev.zkspring.embedded.ZkEmbeddedProperties} binds {@code zk.embedded.*}.
 */
@NullMarked
package dev.zkspring.embedded;

import org.jspecify.annotations.NullMarked;
