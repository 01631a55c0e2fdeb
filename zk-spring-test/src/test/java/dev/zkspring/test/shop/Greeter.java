package dev.zkspring.test.shop;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

import dev.zkspring.refresh.RefreshScope;

/** A refresh-scoped bean: its greeting follows {@code shop.greeting} in ZooKeeper. */
@Component
@RefreshScope
public class Greeter {

	@Value("${shop.greeting:from-yml}")
	private String greeting;

	public String greeting() {
		return this.greeting;
	}

}
