package dev.zkspring.autoconfigure;

import org.apache.curator.framework.CuratorFramework;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

import dev.zkspring.config.ZkConfigApplier;
import dev.zkspring.refresh.ConsistentReads;
import dev.zkspring.refresh.RefreshTargetRecorder;
import dev.zkspring.refresh.ZkConfigListenerMethods;
import dev.zkspring.refresh.ZkRefreshProperties;
import dev.zkspring.refresh.ZkRefresher;

/**
 * The refresh scope: records {@code @RefreshScope} beans, rebinds them in place when the
 * configuration in ZooKeeper changes (or refuses the change as a whole), and calls
 * {@code @ZkConfigListener} methods afterwards.
 */
@AutoConfiguration(after = ZkAutoConfiguration.class)
@ConditionalOnClass(CuratorFramework.class)
@ConditionalOnBooleanProperty(name = "zk.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty(name = "zk.config.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty(name = "zk.refresh.enabled", matchIfMissing = true)
@EnableConfigurationProperties(ZkRefreshProperties.class)
public final class ZkRefreshAutoConfiguration {

	@Bean
	static RefreshTargetRecorder zkRefreshTargetRecorder() {
		return new RefreshTargetRecorder();
	}

	@Bean
	static ZkConfigListenerMethods zkConfigListenerMethods() {
		return new ZkConfigListenerMethods();
	}

	@Bean
	@ConditionalOnMissingBean(ZkConfigApplier.class)
	ZkRefresher zkRefresher(RefreshTargetRecorder zkRefreshTargetRecorder) {
		return new ZkRefresher(zkRefreshTargetRecorder);
	}

	@Bean
	@ConditionalOnMissingBean
	ConsistentReads zkConsistentReads(RefreshTargetRecorder zkRefreshTargetRecorder) {
		return zkRefreshTargetRecorder.consistentReads();
	}

}
