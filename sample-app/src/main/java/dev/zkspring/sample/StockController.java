package dev.zkspring.sample;

import java.util.Map;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The stock scenario over HTTP: deduct from any instance, see the shared quantity from any instance. */
@RestController
class StockController {

	private final StockService service;

	private final StockStore store;

	StockController(StockService service, StockStore store) {
		this.service = service;
		this.store = store;
	}

	@PostMapping("/stock/{sku}/deduct")
	ResponseEntity<Map<String, Object>> deduct(@PathVariable String sku) {
		int left = this.service.deduct(sku);
		if (left < 0) {
			return ResponseEntity.status(HttpStatus.CONFLICT).body(Map.of("sku", sku, "error", "out of stock"));
		}
		return ResponseEntity.ok(Map.of("sku", sku, "quantity", left));
	}

	@PutMapping("/stock/{sku}")
	Map<String, Object> restock(@PathVariable String sku, @RequestParam int quantity) {
		if (quantity < 0) {
			throw new IllegalArgumentException("quantity must not be negative");
		}
		this.service.restock(sku, quantity);
		return Map.of("sku", sku, "quantity", quantity);
	}

	@GetMapping("/stock/{sku}")
	ResponseEntity<Map<String, Object>> quantity(@PathVariable String sku) {
		Integer quantity = this.store.quantity(sku);
		return (quantity != null) ? ResponseEntity.ok(Map.of("sku", sku, "quantity", quantity))
				: ResponseEntity.notFound().build();
	}

}
