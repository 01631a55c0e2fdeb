package dev.zkspring.lock;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/** {@code zk.lock.*}: distributed locks taken with {@code @ZkLock} and {@code ZkLockTemplate}. */
@ConfigurationProperties(ZkLockProperties.PREFIX)
public class ZkLockProperties {

	/** The prefix of these properties. */
	public static final String PREFIX = "zk.lock";

	/** Whether @ZkLock methods are locked and a ZkLockTemplate bean is defined. */
	private boolean enabled = true;

	/** Path under which each lock key gets its own container node. */
	private String root = "/locks";

	/** How long a caller waits for a busy lock when @ZkLock or the template names no wait time. */
	private Duration defaultWait = Duration.ofSeconds(3);

	/** Whether threads holding a lock are interrupted when the lock is lost or in doubt. */
	private boolean interruptOnLoss;

	/** How many further holders of this JVM may follow one another on a key before a waiting JVM goes. */
	private int maxLocalHandoffs = 16;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public String getRoot() {
		return this.root;
	}

	public void setRoot(String root) {
		this.root = root;
	}

	public Duration getDefaultWait() {
		return this.defaultWait;
	}

	public void setDefaultWait(Duration defaultWait) {
		this.defaultWait = defaultWait;
	}

	public boolean isInterruptOnLoss() {
		return this.interruptOnLoss;
	}

	public void setInterruptOnLoss(boolean interruptOnLoss) {
		this.interruptOnLoss = interruptOnLoss;
	}

	public int getMaxLocalHandoffs() {
		return this.maxLocalHandoffs;
	}

	public void setMaxLocalHandoffs(int maxLocalHandoffs) {
		this.maxLocalHandoffs = maxLocalHandoffs;
	}

	/**
	 * The values a {@link ZkLockTemplate} is built from.
	 * @return the root, default wait, hand-off bound and interrupt switch of these properties
	 */
	public ZkLockTemplate.Settings toSettings() {
		return new ZkLockTemplate.Settings(this.root, this.defaultWait, this.maxLocalHandoffs, this.interruptOnLoss);
	}

}
