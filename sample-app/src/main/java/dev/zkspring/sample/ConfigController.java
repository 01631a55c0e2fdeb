package dev.zkspring.sample;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** The live values of the two refreshable beans. */
@RestController
class ConfigController {

	private final Greeter greeter;

	private final ShopProperties shop;

	ConfigController(Greeter greeter, ShopProperties shop) {
		this.greeter = greeter;
		this.shop = shop;
	}

	@GetMapping("/config")
	Map<String, Object> config() {
		return values(this.greeter, this.shop);
	}

	static Map<String, Object> values(Greeter greeter, ShopProperties shop) {
		Map<String, Object> values = new LinkedHashMap<>();
		values.put("sample.greeting", greeter.greeting());
		values.put("sample.shop.banner", shop.getBanner());
		values.put("sample.shop.max-per-order", shop.getMaxPerOrder());
		return values;
	}

}
