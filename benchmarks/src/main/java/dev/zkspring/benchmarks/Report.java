package dev.zkspring.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The Markdown that becomes RESULTS.md: one table per scenario, ratios against each baseline. */
final class Report {

	private final StringBuilder body = new StringBuilder();

	void section(String title, String explanation) {
		this.body.append("\n## ").append(title).append("\n\n").append(explanation).append("\n");
	}

	/** Rows: p50 / p99 / max in µs; a column per baseline with this row's p50 divided by the baseline's. */
	void latency(String scenario, Map<String, Stats> stats, List<String> baselines) {
		this.body.append("\n**").append(scenario)
			.append("** (µs per operation; ratio = p50 ÷ baseline p50, lower is faster)\n\n");
		header(List.of("samples", "p50", "p99", "max"), baselines);
		stats.forEach((name, s) -> {
			row(name, List.of(String.valueOf(s.count()), fmt(s.p50()), fmt(s.p99()), fmt(s.max())));
			baselines.forEach((b) -> cell(stats.containsKey(b) ? ratio(s.p50() / stats.get(b).p50()) : "—"));
			this.body.append("\n");
		});
	}

	/** Rows: operations per second; a column per baseline with this row's rate divided by the baseline's. */
	void throughput(String scenario, Map<String, Double> rates, List<String> baselines) {
		this.body.append("\n**").append(scenario)
			.append("** (operations per second, median of rounds; ratio = rate ÷ baseline rate, higher is faster)\n\n");
		header(List.of("ops/s"), baselines);
		rates.forEach((name, rate) -> {
			row(name, List.of(fmt(rate)));
			baselines.forEach((b) -> cell(rates.containsKey(b) ? ratio(rate / rates.get(b)) : "—"));
			this.body.append("\n");
		});
	}

	/** A contender that could not run: the row stays, with the error, instead of disappearing. */
	void failed(String scenario, String contender, Throwable error) {
		this.body.append("\n> **").append(scenario).append(" — ").append(contender).append(" could not run:** `")
			.append(String.valueOf(error).replace('`', '\'').replace('\n', ' ')).append("`\n");
	}

	/** What has been written so far, without the file's head. */
	String body() {
		return this.body.toString();
	}

	void note(String text) {
		this.body.append("\n").append(text).append("\n");
	}

	void write(Path file, Settings settings) throws IOException {
		String head = "# zk-spring benchmarks\n\nWritten by `dev.zkspring.benchmarks.BenchmarkMain`"
				+ (settings.quick() ? " in **--quick** mode (a smoke check; too few samples to quote)" : "")
				+ ". How to read it: README, section Benchmarks.\n\n" + Machine.describe() + "\n";
		Files.writeString(file, head + this.body);
	}

	private void header(List<String> columns, List<String> baselines) {
		this.body.append("| contender |");
		columns.forEach((c) -> this.body.append(' ').append(c).append(" |"));
		baselines.forEach((b) -> this.body.append(" ÷ ").append(b).append(" |"));
		this.body.append("\n|---|");
		for (int i = 0; i < columns.size() + baselines.size(); i++) {
			this.body.append("---:|");
		}
		this.body.append("\n");
	}

	private void row(String name, List<String> values) {
		this.body.append("| ").append(name).append(" |");
		values.forEach(this::cell);
	}

	private void cell(String value) {
		this.body.append(' ').append(value).append(" |");
	}

	static String fmt(double value) {
		return (value >= 100) ? String.format(Locale.ROOT, "%,.0f", value) : String.format(Locale.ROOT, "%.1f", value);
	}

	private static String ratio(double value) {
		return String.format(Locale.ROOT, (value < 0.1) ? "%.4f×" : "%.2f×", value);
	}

}
