package dev.zkspring.reliability.workload;

import org.springframework.stereotype.Component;

import dev.zkspring.lock.ZkLock;
import dev.zkspring.lock.ZkLockContext;

/** The {@code @ZkLock} section: two writes through the fenced store with the turn's token, a pause between. */
@Component
public class CriticalSection {

	private final Journal journal;

	private final FencedStore store;

	CriticalSection(Journal journal, FencedStore store) {
		this.journal = journal;
		this.store = store;
	}

	@ZkLock(key = "'counter'", waitTime = "3s")
	public void enter(String thread) throws InterruptedException {
		ZkLockContext context = ZkLockContext.current();
		long token = context.getFencingToken();
		this.journal.line("LE", thread, token);
		write(thread, token);
		Thread.sleep(15);
		write(thread, token);
		this.journal.line("LX", thread, token, context.isHeld());
	}

	private void write(String thread, long token) {
		long sequence = this.store.write(token);
		this.journal.line("LW", thread, token, (sequence > 0) ? "ok" : "refused", Math.abs(sequence));
	}

}
