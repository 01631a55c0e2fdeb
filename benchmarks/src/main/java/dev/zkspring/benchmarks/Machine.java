package dev.zkspring.benchmarks;

import java.lang.management.ManagementFactory;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;

import org.apache.zookeeper.Version;

/** The facts a reader needs to compare a RESULTS.md with their own run. */
final class Machine {

	private Machine() {
	}

	static String describe() {
		Runtime runtime = Runtime.getRuntime();
		return "| fact | value |\n|---|---|\n"
				+ "| date | " + OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.SECONDS) + " |\n"
				+ "| cores | " + runtime.availableProcessors() + " |\n"
				+ "| JVM heap max | " + runtime.maxMemory() / (1024 * 1024) + " MiB |\n"
				+ "| JDK | " + System.getProperty("java.vm.name") + " " + System.getProperty("java.version") + " |\n"
				+ "| OS | " + System.getProperty("os.name") + " " + System.getProperty("os.version") + " ("
				+ System.getProperty("os.arch") + ") |\n"
				+ "| JVM arguments | " + String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments()) + " |\n"
				+ "| ZooKeeper | " + Version.getFullVersion().split(",")[0] + ", one standalone server in the same JVM"
				+ " (zk-spring's embedded server: loopback, tickTime 1000 ms, data in a temporary directory, "
				+ "fsync on), every contender on the same server |\n";
	}

}
