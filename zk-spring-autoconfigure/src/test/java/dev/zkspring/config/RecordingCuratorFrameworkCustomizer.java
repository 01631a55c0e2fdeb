package dev.zkspring.config;

import java.util.concurrent.atomic.AtomicInteger;

import org.apache.curator.framework.CuratorFrameworkFactory;

import dev.zkspring.client.CuratorFrameworkCustomizer;

/** A customizer registered through the test {@code META-INF/spring.factories}; counts the clients it saw. */
public class RecordingCuratorFrameworkCustomizer implements CuratorFrameworkCustomizer {

	static final AtomicInteger applied = new AtomicInteger();

	@Override
	public void customize(CuratorFrameworkFactory.Builder builder) {
		applied.incrementAndGet();
	}

}
