package com.example.orders;

import org.apache.zookeeper.Version;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.stereotype.Component;
import org.springframework.stereotype.Service;

import dev.zkspring.lock.ZkLock;
import dev.zkspring.refresh.RefreshScope;

/** A user's application: configuration from ZooKeeper, a lock, and a line saying it started. */
@SpringBootApplication
public class OrdersApplication {

	public static void main(String[] args) {
		SpringApplication.run(OrdersApplication.class, args);
	}

	@Bean
	ApplicationRunner started(Greeter greeter, Stock stock) {
		return (args) -> {
			stock.deduct("apple");
			System.out.println("orders started: greeting=" + greeter.greeting() + ", deducted=" + stock.deducted()
					+ ", zookeeper client " + Version.getFullVersion());
		};
	}

	@RefreshScope
	@Component
	static class Greeter {

		@Value("${orders.greeting:hello}")
		private String greeting;

		public String greeting() {
			return this.greeting;
		}

	}

	@Service
	static class Stock {

		private int deducted;

		@ZkLock(key = "'stock:' + #sku", waitTime = "3s")
		public void deduct(String sku) {
			this.deducted++;
		}

		public int deducted() {
			return this.deducted;
		}

	}

}
