package dev.zkspring.test.shop;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationListener;

/** How long each test context took to start (Boot's own measure), so tests can bound it. */
public class StartupTimes implements ApplicationListener<ApplicationReadyEvent> {

	/** Every test context must start within this, ZooKeeper included: no connection timeout waited for. */
	public static final Duration BOUND = Duration.ofSeconds(5);

	private static final Map<ApplicationContext, Duration> times = new ConcurrentHashMap<>();

	@Override
	public void onApplicationEvent(ApplicationReadyEvent event) {
		times.put(event.getApplicationContext(), event.getTimeTaken());
	}

	public static Duration of(ApplicationContext context) {
		Duration taken = times.get(context);
		if (taken == null) {
			throw new IllegalStateException("no startup time recorded for " + context);
		}
		return taken;
	}

}
