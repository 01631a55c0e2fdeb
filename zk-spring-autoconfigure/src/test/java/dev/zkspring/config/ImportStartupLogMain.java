package dev.zkspring.config;

/**
 * Starts and closes an application in a JVM of its own, so the logging system starts out uninitialised as in
 * a real application (inside the test JVM an earlier test already set it up, and nothing is held back).
 */
public final class ImportStartupLogMain {

	private ImportStartupLogMain() {
	}

	public static void main(String[] args) {
		ImportTestSupport.run((application) -> {
		}, args).close();
		System.exit(0);
	}

}
