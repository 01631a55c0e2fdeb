package dev.zkspring.reliability.workload;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * The resource the lock protects, shared by every workload JVM through one file: it refuses a write
 * whose fencing token is lower than one it has accepted, as a fenced database or storage service would.
 * The check and the write happen under an OS file lock, so decisions of all JVMs are serialized.
 */
@Component
public class FencedStore {

	private final Path file;

	FencedStore(@Value("${reliability.dir}") Path dir) {
		this.file = dir.resolve("fenced-store.bin");
	}

	/**
	 * Write in the name of a lock holder.
	 * @param token the holder's fencing token
	 * @return the write's place in the store's order of decisions, negative when it was refused
	 */
	public long write(long token) {
		try (FileChannel channel = FileChannel.open(this.file, StandardOpenOption.CREATE, StandardOpenOption.READ,
				StandardOpenOption.WRITE); FileLock lock = channel.lock()) {
			ByteBuffer buffer = ByteBuffer.allocate(16);
			channel.read(buffer, 0);
			buffer.flip();
			long highest = (buffer.remaining() >= 8) ? buffer.getLong(0) : Long.MIN_VALUE;
			long writes = (buffer.remaining() >= 16) ? buffer.getLong(8) : 0;
			boolean accepted = token >= highest;
			buffer.clear();
			buffer.putLong(accepted ? token : highest).putLong(writes + 1).flip();
			channel.write(buffer, 0);
			return accepted ? writes + 1 : -(writes + 1);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
