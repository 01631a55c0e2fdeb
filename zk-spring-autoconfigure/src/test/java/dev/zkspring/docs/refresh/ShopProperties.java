package dev.zkspring.docs.refresh;

import jakarta.validation.constraints.Max;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

import dev.zkspring.refresh.RefreshScope;

/** docs/refresh-scope.md (docs check: DocsSnippetsTests). */
// tag::properties[]
@RefreshScope
@Validated
@ConfigurationProperties("shop")
public class ShopProperties {                   // bound fresh, validated, then its changed properties set

	@Max(100)
	private int maxItems = 10;

	public int getMaxItems() {
		return this.maxItems;
	}

	public void setMaxItems(int maxItems) {
		this.maxItems = maxItems;
	}

}
// end::properties[]
