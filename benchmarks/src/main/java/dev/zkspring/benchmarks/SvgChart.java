package dev.zkspring.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A line chart against N drawn as SVG by hand (no plotting library on this machine): log-scaled N on
 * the x axis, the figure on a linear or log y axis, one polyline per series, a legend.
 */
final class SvgChart {

	private static final String[] COLOURS = { "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b" };

	private static final int W = 640;

	private static final int H = 400;

	private static final int LEFT = 80;

	private static final int RIGHT = 20;

	private static final int TOP = 40;

	private static final int BOTTOM = 60;

	private final String title;

	private final String yLabel;

	private final boolean logY;

	private final List<Series> series = new ArrayList<>();

	SvgChart(String title, String yLabel, boolean logY) {
		this.title = title;
		this.yLabel = yLabel;
		this.logY = logY;
	}

	SvgChart add(String name, List<double[]> points) {
		List<double[]> usable = points.stream().filter((p) -> p[0] > 0 && Double.isFinite(p[1]) && (!this.logY || p[1] > 0)).toList();
		if (!usable.isEmpty()) {
			this.series.add(new Series(name, usable));
		}
		return this;
	}

	void write(Path file) throws IOException {
		double xMin = Double.MAX_VALUE;
		double xMax = -Double.MAX_VALUE;
		double yMin = this.logY ? Double.MAX_VALUE : 0;
		double yMax = -Double.MAX_VALUE;
		for (Series s : this.series) {
			for (double[] p : s.points()) {
				xMin = Math.min(xMin, p[0]);
				xMax = Math.max(xMax, p[0]);
				yMin = Math.min(yMin, p[1]);
				yMax = Math.max(yMax, p[1]);
			}
		}
		if (this.series.isEmpty()) {
			xMin = 1;
			xMax = 10;
			yMin = this.logY ? 1 : 0;
			yMax = 1;
		}
		if (xMax <= xMin) {
			xMax = xMin * 10;
		}
		if (yMax <= yMin) {
			yMax = yMin + 1;
		}
		if (!this.logY) {
			yMax *= 1.1;
		}
		Axis x = new Axis(Math.log10(xMin), Math.log10(xMax), LEFT, W - RIGHT);
		Axis y = this.logY ? new Axis(Math.log10(yMin), Math.log10(yMax), H - BOTTOM, TOP)
				: new Axis(yMin, yMax, H - BOTTOM, TOP);
		StringBuilder svg = new StringBuilder();
		svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
				+ "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n", W, H));
		text(svg, W / 2.0, 20, "middle", this.title, 14);
		line(svg, LEFT, H - BOTTOM, W - RIGHT, H - BOTTOM, "#000");
		line(svg, LEFT, TOP, LEFT, H - BOTTOM, "#000");
		for (double n : this.series.stream().flatMap((s) -> s.points().stream()).mapToDouble((p) -> p[0]).distinct().toArray()) {
			double px = x.at(Math.log10(n));
			line(svg, px, H - BOTTOM, px, H - BOTTOM + 5, "#000");
			text(svg, px, H - BOTTOM + 18, "middle", String.valueOf(Math.round(n)), 11);
		}
		for (int i = 0; i <= 4; i++) {
			double v = y.from + (y.to - y.from) * i / 4;
			double py = y.at(v);
			line(svg, LEFT - 5, py, W - RIGHT, py, "#ddd");
			text(svg, LEFT - 8, py + 4, "end", Report.fmt(this.logY ? Math.pow(10, v) : v), 11);
		}
		text(svg, W / 2.0, H - 20, "middle", "N (instances, log scale)", 12);
		svg.append(String.format(Locale.ROOT, "<text x=\"16\" y=\"%.1f\" transform=\"rotate(-90 16 %.1f)\" "
				+ "text-anchor=\"middle\">%s%s</text>\n", H / 2.0, H / 2.0, escape(this.yLabel), this.logY ? " (log scale)" : ""));
		for (int i = 0; i < this.series.size(); i++) {
			Series s = this.series.get(i);
			String colour = COLOURS[i % COLOURS.length];
			StringBuilder points = new StringBuilder();
			for (double[] p : s.points()) {
				double px = x.at(Math.log10(p[0]));
				double py = y.at(this.logY ? Math.log10(p[1]) : p[1]);
				points.append(String.format(Locale.ROOT, "%.1f,%.1f ", px, py));
				svg.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n", px, py, colour));
			}
			svg.append("<polyline fill=\"none\" stroke-width=\"2\" stroke=\"").append(colour).append("\" points=\"")
				.append(points.toString().trim()).append("\"/>\n");
			double ly = TOP + 8 + i * 16;
			line(svg, LEFT + 10, ly, LEFT + 30, ly, colour);
			text(svg, LEFT + 36, ly + 4, "start", s.name(), 11);
		}
		svg.append("</svg>\n");
		Files.writeString(file, svg);
	}

	private static void line(StringBuilder svg, double x1, double y1, double x2, double y2, String colour) {
		svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n",
				x1, y1, x2, y2, colour));
	}

	private static void text(StringBuilder svg, double x, double y, String anchor, String text, int size) {
		svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\">%s</text>\n",
				x, y, anchor, size, escape(text)));
	}

	private static String escape(String text) {
		return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
	}

	private record Series(String name, List<double[]> points) {
	}

	/** Maps a value range onto a pixel range. */
	private record Axis(double from, double to, double pixelFrom, double pixelTo) {

		double at(double value) {
			double span = (this.to == this.from) ? 1 : (this.to - this.from);
			return this.pixelFrom + (value - this.from) / span * (this.pixelTo - this.pixelFrom);
		}

	}

}
