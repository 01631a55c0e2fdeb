package dev.zkspring.docs.configuration;

import org.springframework.beans.factory.annotation.Value;

/** docs/configuration.md (docs check: DocsSnippetsTests). */
class ConfigurationSnippets {

	// tag::value[]
	@Value("${shop.greeting}") String greeting;            // "hi"; --shop.greeting=cli still wins
	// end::value[]

}
