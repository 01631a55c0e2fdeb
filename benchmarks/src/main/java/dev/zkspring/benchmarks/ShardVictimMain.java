package dev.zkspring.benchmarks;

/**
 * The instance of {@link ShardBenchApp} that {@link ShardedJobBenchmark} kills with {@code kill -9}, in a JVM
 * of its own: its shards' work never ends, and it prints {@code RUNNING fireTime index} as each starts and
 * {@code READY} once started. Arguments: connect string, application name, instance id, then
 * {@code key=value} properties.
 */
public final class ShardVictimMain {

	private ShardVictimMain() {
	}

	public static void main(String[] args) throws Exception {
		String[] properties = new String[args.length - 3 + 2];
		System.arraycopy(args, 3, properties, 0, args.length - 3);
		properties[args.length - 3] = "bench.work-millis=-1";
		properties[args.length - 2] = "bench.print=true";
		ShardBenchApp.start(args[0], args[1], args[2], properties);
		System.out.println("READY");
		System.out.flush();
		Thread.sleep(Long.MAX_VALUE);
	}

}
