package dev.zkspring.apps.cli;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.springframework.stereotype.Service;

import dev.zkspring.lock.ZkLock;
import dev.zkspring.lock.ZkLockContext;

/** Writes one report at a time across every instance: the lock's fencing token goes with each line. */
@Service
public class Reports {

	private final List<String> written = new CopyOnWriteArrayList<>();

	@ZkLock(key = "'reports'")
	public long write(String line) {
		long token = ZkLockContext.current().getFencingToken();
		this.written.add(token + " " + line);
		return token;
	}

	public List<String> written() {
		return this.written;
	}

}
