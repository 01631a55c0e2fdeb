package dev.zkspring.reliability.workload;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * This instance's history, one line per thing done: {@code <nanoTime> <wall millis> <TYPE> fields...}.
 * nanoTime is the machine's monotonic clock, shared by every process on it, so the campaign orders
 * lines of different processes by it. Each line is written through at once, so a kill -9 loses nothing
 * that happened before it.
 */
@Component
public class Journal {

	private final FileOutputStream out;

	Journal(@Value("${reliability.dir}") Path dir, @Value("${reliability.instance}") int instance) {
		try {
			Files.createDirectories(dir);
			this.out = new FileOutputStream(dir.resolve("journal-" + instance + ".log").toFile(), true);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		line("START", ProcessHandle.current().pid());
	}

	/** Append one line; fields are separated by single spaces. */
	public synchronized void line(String type, Object... fields) {
		StringBuilder line = new StringBuilder(64).append(System.nanoTime())
			.append(' ')
			.append(System.currentTimeMillis())
			.append(' ')
			.append(type);
		for (Object field : fields) {
			line.append(' ').append(field);
		}
		line.append('\n');
		try {
			this.out.write(line.toString().getBytes(StandardCharsets.UTF_8));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
