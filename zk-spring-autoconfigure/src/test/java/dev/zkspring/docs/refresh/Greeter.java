package dev.zkspring.docs.refresh;

import java.time.Duration;
import java.util.List;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

import dev.zkspring.config.ZkConfigChange;
import dev.zkspring.refresh.RefreshScope;
import dev.zkspring.refresh.ZkConfigListener;

// docs/refresh-scope.md (docs check: DocsSnippetsTests).

// tag::greeter[]
@Component
@RefreshScope
class Greeter {

	@Value("${shop.greeting:hello}")
	private String greeting;                    // rewritten when shop.greeting changes

	private Duration timeout;

	@Value("${shop.timeout}")
	void setTimeout(Duration timeout) {         // called again with the converted new value
		this.timeout = timeout;
	}

	@ZkConfigListener(prefixes = "shop")
	void shopChanged(List<ZkConfigChange> changes) {
		// called after the beans were rebound, with the keys that changed
	}

}
// end::greeter[]
