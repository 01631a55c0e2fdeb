package dev.zkspring.test.shop;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

/** A small user application: configuration from ZooKeeper, a refresh-scoped bean, a lock, a leader-only call, a page. */
@SpringBootApplication
@EnableConfigurationProperties(ShopLimits.class)
public class ShopApplication {

	public static void main(String[] args) {
		SpringApplication.run(ShopApplication.class, args);
	}

}
