package dev.zkspring.cli;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** One run of the tool in this process: its exit status, stdout and stderr. */
record CliRun(int status, String out, String err) {

	static CliRun run(String connect, String stdin, String... args) {
		return runWithEnv(Map.of("ZK_CONNECT", connect), stdin, args);
	}

	static CliRun runWithEnv(Map<String, String> env, String stdin, String... args) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		ByteArrayOutputStream err = new ByteArrayOutputStream();
		List<String> all = new ArrayList<>(List.of(args));
		int status = ZkSpringCli.run(all.toArray(String[]::new),
				new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
				new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
				env);
		return new CliRun(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
	}

}
