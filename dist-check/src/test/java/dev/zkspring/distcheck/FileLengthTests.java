package dev.zkspring.distcheck;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Files a reader can hold (issue 41.4): a main source file over 300 lines says in its opening comment
 * (before its type) why it is one file, with the words "300 lines"; otherwise it is split.
 */
class FileLengthTests {

	static final int LIMIT = 300;

	@Test
	void everyMainFileOverThreeHundredLinesSaysWhyInItsOpeningComment() throws IOException {
		Path root = Path.of(System.getProperty("zkspring.root"));
		try (Stream<Path> files = Files.walk(root)) {
			List<String> unexplained = files.filter((file) -> file.toString().endsWith(".java"))
				.filter((file) -> root.relativize(file).toString().replace('\\', '/').matches("(.+/)?src/main/java/.+"))
				.filter((file) -> !root.relativize(file).toString().contains("/target/"))
				.filter((file) -> lines(file).size() > LIMIT && !explained(lines(file)))
				.map((file) -> root.relativize(file) + " (" + lines(file).size() + " lines)")
				.sorted()
				.toList();
			assertThat(unexplained).as("main files over %d lines whose opening comment does not say why "
					+ "(split them, or say why in a sentence with the words '300 lines')", LIMIT).isEmpty();
		}
	}

	/** Whether the comments above the first type declaration mention the limit. */
	private static boolean explained(List<String> lines) {
		for (String line : lines) {
			if (line.matches("^(public |final |abstract |sealed |non-sealed )*(class|interface|record|enum|@interface) .*")) {
				return false;
			}
			if (line.contains("300 lines")) {
				return true;
			}
		}
		return false;
	}

	private static List<String> lines(Path file) {
		try {
			return Files.readAllLines(file);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
