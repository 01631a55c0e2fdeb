package dev.zkspring.autoconfigure;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.aop.Advisor;
import org.springframework.aop.support.AopUtils;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.zkspring.client.SessionLease;
import dev.zkspring.lock.ZkLock;
import dev.zkspring.lock.ZkLockBusyException;
import dev.zkspring.lock.ZkLockTemplate;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class ZkLockAutoConfigurationTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class, ZkLockAutoConfiguration.class))
		.withPropertyValues(zk.connectProperty());

	@Test
	void definesATemplateAndTheAdvisorOnTheApplicationsClient() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(ZkLockTemplate.class).hasBean("zkLockAdvisor");
			assertThat(context.getBean("zkLockAdvisor")).isInstanceOf(Advisor.class);
			assertThat(context.getBean(ZkLockTemplate.class).getDefaultWait()).isEqualTo(Duration.ofSeconds(3));
		});
	}

	@Test
	void defaultWaitComesFromZkLockDefaultWait() throws Exception {
		CuratorFramework holder = zk.newClient();
		this.contextRunner.withPropertyValues("zk.lock.default-wait=300ms")
			.withUserConfiguration(Job.class)
			.run((context) -> {
				ZkLockTemplate other = new ZkLockTemplate(holder, SessionLease.start(holder),
						ZkLockTemplate.Settings.defaults(), (event) -> {
						});
				Job job = context.getBean(Job.class);
				CountDownLatch held = new CountDownLatch(1);
				CountDownLatch done = new CountDownLatch(1);
				Thread thread = new Thread(() -> other.execute("Job.run", Duration.ofSeconds(5), () -> {
					held.countDown();
					return done.await(10, TimeUnit.SECONDS);
				}));
				thread.start();
				assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();
				try {
					assertThatExceptionOfType(ZkLockBusyException.class).isThrownBy(job::run)
						.satisfies((ex) -> assertThat(ex.getWaitTime()).isEqualTo(Duration.ofMillis(300)));
				}
				finally {
					done.countDown();
					thread.join(10_000);
				}
			});
	}

	@Test
	void backsOffWhenTheApplicationDefinesItsOwnTemplate() {
		this.contextRunner.withUserConfiguration(UserTemplate.class).run((context) -> {
			assertThat(context).hasSingleBean(ZkLockTemplate.class);
			assertThat(context.getBean(ZkLockTemplate.class)).isSameAs(context.getBean("myTemplate"));
		});
	}

	@Test
	void zkLockEnabledFalseTurnsLocksOff() {
		this.contextRunner.withPropertyValues("zk.lock.enabled=false").withUserConfiguration(Job.class).run((context) -> {
			assertThat(context).hasNotFailed().doesNotHaveBean(ZkLockTemplate.class).doesNotHaveBean("zkLockAdvisor");
			assertThat(AopUtils.isAopProxy(context.getBean(Job.class))).isFalse();
		});
	}

	@Test
	void zkEnabledFalseTurnsLocksOff() {
		this.contextRunner.withPropertyValues("zk.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(ZkLockTemplate.class));
	}

	@Test
	void backsOffWhenCuratorIsNotOnTheClasspath() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(CuratorFramework.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(ZkLockTemplate.class));
	}

	@Configuration(proxyBeanMethods = false)
	static class Job {

		@ZkLock
		public void run() {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserTemplate {

		@Bean
		ZkLockTemplate myTemplate(CuratorFramework client, SessionLease lease, ApplicationEventPublisher publisher) {
			return new ZkLockTemplate(client, lease, ZkLockTemplate.Settings.defaults(), publisher);
		}

	}

}
