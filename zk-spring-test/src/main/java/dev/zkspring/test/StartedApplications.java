package dev.zkspring.test;

import java.util.concurrent.atomic.AtomicBoolean;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import dev.zkspring.test.AutoConfigureZooKeeper.Replace;

/**
 * The JVM-wide switch behind {@link ServeStartedApplications}: set for the duration of the annotated class,
 * read by {@link ZkTestRunListener} for applications the TestContext framework did not start. One class at a
 * time (JUnit runs classes one after another unless told otherwise; a second concurrent class is refused).
 */
final class StartedApplications implements BeforeAllCallback, AfterAllCallback {

	private static @Nullable Served current;

	@Override
	public void beforeAll(ExtensionContext context) {
		Class<?> testClass = context.getRequiredTestClass();
		synchronized (StartedApplications.class) {
			if (current != null && current.testClass() != testClass) {
				throw new IllegalStateException("@ServeStartedApplications on " + testClass.getName() + " while "
						+ current.testClass().getName() + " runs: the switch is JVM-wide, so run these classes "
						+ "one after another (no concurrent execution of classes).");
			}
			ZkTestSettings settings = ZkTestSettings.of(testClass);
			String connect = (settings.replace() == Replace.ANY) ? SharedZooKeeper.newChroot() : null;
			current = new Served(testClass, settings, connect, new AtomicBoolean());
		}
	}

	@Override
	public void afterAll(ExtensionContext context) {
		synchronized (StartedApplications.class) {
			if (current != null && current.testClass() == context.getRequiredTestClass()) {
				current = null;
			}
		}
	}

	/** What the class being run asks for, or {@code null} when no annotated class runs. */
	static synchronized @Nullable Served current() {
		return current;
	}

	/**
	 * The class being run.
	 * @param testClass the annotated class
	 * @param settings its {@link ZkConfig} documents and {@link AutoConfigureZooKeeper} choice
	 * @param connect the class's chroot on the shared server, or {@code null} with {@code Replace.NONE}
	 * @param seeded whether the documents were written (by the first application started)
	 */
	record Served(Class<?> testClass, ZkTestSettings settings, @Nullable String connect, AtomicBoolean seeded) {

		/** The settings for the next start: the documents the first time only, so a later start keeps changes. */
		ZkTestSettings settingsForNextStart() {
			return this.seeded.compareAndSet(false, true) ? this.settings : this.settings.withoutDocuments();
		}

	}

}
