package dev.zkspring.lock;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.autoconfigure.ZkLockAutoConfiguration;
import dev.zkspring.test.ZooKeeperExtension;

/**
 * What the {@code @ZkLock} application tests share (blocking, CompletionStage, reactive): the lock
 * application's runner for {@link dev.zkspring.test.ZkAppFixture}, and the journal a guarded service keeps.
 */
final class LockApps {

	private LockApps() {
	}

	/** The client and the lock auto-configuration, on the class's server. */
	static ApplicationContextRunner runner(ZooKeeperExtension zk, Path snapshots) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class, ZkLockAutoConfiguration.class))
			.withPropertyValues(zk.connectProperty());
	}

	/**
	 * What a guarded service did, and on which threads its guarded methods were invoked. Read through
	 * the accessors: the service is a proxy, whose own fields are not the target's.
	 */
	static class Journal {

		final List<String> journal = new CopyOnWriteArrayList<>();

		final List<String> invokedOn = new CopyOnWriteArrayList<>();

		public List<String> journal() {
			return this.journal;
		}

		public List<String> invokedOn() {
			return this.invokedOn;
		}

		/** A guarded method was entered by {@code who}, on the current thread. */
		void enter(String who) {
			this.invokedOn.add(Thread.currentThread().getName());
			this.journal.add("enter " + who);
		}

	}

}
