package dev.zkspring.docs.quickstart;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;
import org.springframework.stereotype.Service;

import dev.zkspring.lock.ZkLock;
import dev.zkspring.refresh.RefreshScope;

// The README's quick start (docs check: DocsSnippetsTests).

// tag::quick-start[]
@RefreshScope // dev.zkspring.refresh.RefreshScope
@Component
class Greeter {

	@Value("${shop.greeting:hello}") // from /config/orders, rebound when it changes
	String greeting;

}

@Service
class Stock {

	@ZkLock(key = "'stock:' + #sku", waitTime = "3s") // one caller per sku across every instance
	public void deduct(String sku, int n) {
		// read the quantity of sku, check it and write it back: no other instance is inside meanwhile
	}

}
// end::quick-start[]
