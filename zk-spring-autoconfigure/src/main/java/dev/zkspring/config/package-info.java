/**
 * The config center: an {@code ApplicationContextInitializer} that loads JSON documents from znodes
 * (and whatever other {@link dev.zkspring.config.PropertySourceLocator}s are registered) into the
 * Environment before any bean exists (or, with {@code spring.config.import=zk:}, with Boot's own config
 * files), then watches them and publishes one event per accepted change.
 * Bad documents never reach the Environment, and a last-known-good snapshot lets an application start
 * while ZooKeeper is down. {@link dev.zkspring.config.ZkConfigProperties} binds {@code zk.config.*}, read by the
 * initializer itself before any bean exists.
 */
@NullMarked
package dev.zkspring.config;

import org.jspecify.annotations.NullMarked;
