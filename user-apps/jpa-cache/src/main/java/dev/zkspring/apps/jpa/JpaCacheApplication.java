package dev.zkspring.apps.jpa;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.cache.annotation.EnableCaching;

/** Petclinic's shape: JPA on an embedded database and Spring's cache (so spring-context-support), no Quartz. */
@SpringBootApplication
@EnableCaching
public class JpaCacheApplication {

	public static void main(String[] args) {
		SpringApplication.run(JpaCacheApplication.class, args);
	}

}
