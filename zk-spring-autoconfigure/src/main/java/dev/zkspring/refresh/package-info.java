/**
 * The refresh scope: {@code @RefreshScope} beans whose {@code @Value} members and
 * {@code @ConfigurationProperties} are rebound in place when the configuration in ZooKeeper changes.
 * A change is checked against every affected bean first and applied to all of them under one lock,
 * or refused as a whole. {@link dev.zkspring.refresh.ZkRefreshProperties} binds {@code zk.refresh.*}.
 */
@NullMarked
package dev.zkspring.refresh;

import org.jspecify.annotations.NullMarked;
