package dev.zkspring.reliability.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/** Two threads that take the lock over and over, journaling every failure by its exception type. */
@Component
public class LockDriver implements SmartLifecycle {

	private final CriticalSection section;

	private final Journal journal;

	private final List<Thread> threads = new ArrayList<>();

	private volatile boolean running;

	LockDriver(CriticalSection section, Journal journal) {
		this.section = section;
		this.journal = journal;
	}

	@EventListener(ApplicationReadyEvent.class)
	void ready() {
		for (int i = 0; i < 2; i++) {
			String name = "t" + i;
			Thread thread = new Thread(() -> loop(name), "lock-driver-" + i);
			thread.setDaemon(true);
			this.threads.add(thread);
			thread.start();
		}
	}

	private void loop(String name) {
		while (this.running) {
			try {
				this.section.enter(name);
				Thread.sleep(ThreadLocalRandom.current().nextInt(5, 30));
			}
			catch (InterruptedException ex) {
				Thread.interrupted();
				this.journal.line("LF", name, "InterruptedException");
			}
			catch (RuntimeException ex) {
				this.journal.line("LF", name, ex.getClass().getSimpleName());
				try {
					Thread.sleep(50);
				}
				catch (InterruptedException interrupted) {
					Thread.interrupted();
				}
			}
		}
	}

	@Override
	public void start() {
		this.running = true;
	}

	@Override
	public void stop() {
		this.running = false;
		for (Thread thread : this.threads) {
			try {
				thread.join(5_000);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

}
