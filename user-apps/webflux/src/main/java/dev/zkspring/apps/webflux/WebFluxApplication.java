package dev.zkspring.apps.webflux;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import dev.zkspring.lock.ZkLock;
import dev.zkspring.refresh.RefreshScope;

/** A reactive web application: a banner from ZooKeeper, and a reservation taken under a lock off the event loop. */
@SpringBootApplication
public class WebFluxApplication {

	public static void main(String[] args) {
		SpringApplication.run(WebFluxApplication.class, args);
	}

	/** The banner, rebound in place when ZooKeeper's document changes. */
	@Component
	@RefreshScope
	static class Banner {

		@Value("${shop.banner:from application.properties}")
		String text;

	}

	/** Reserves stock one caller at a time per item, across every instance. */
	@Component
	static class Stock {

		@ZkLock(key = "'stock:' + #sku")
		public String reserve(String sku) {
			return "reserved " + sku;
		}

	}

	@RestController
	static class ShopController {

		private final Banner banner;

		private final Stock stock;

		ShopController(Banner banner, Stock stock) {
			this.banner = banner;
			this.stock = stock;
		}

		@GetMapping("/banner")
		Mono<String> banner() {
			return Mono.fromSupplier(() -> this.banner.text);
		}

		@GetMapping("/reserve/{sku}")
		Mono<String> reserve(@PathVariable String sku) {
			// a blocking lock wait never runs on an event-loop thread
			return Mono.fromCallable(() -> this.stock.reserve(sku)).subscribeOn(Schedulers.boundedElastic());
		}

	}

}
