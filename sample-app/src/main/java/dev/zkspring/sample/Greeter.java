package dev.zkspring.sample;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

import dev.zkspring.refresh.RefreshScope;

/** A {@code @Value} field that follows {@code sample.greeting} in ZooKeeper without a restart. */
@Component
@RefreshScope
class Greeter {

	@Value("${sample.greeting}")
	private String greeting;

	String greeting() {
		return this.greeting;
	}

}
