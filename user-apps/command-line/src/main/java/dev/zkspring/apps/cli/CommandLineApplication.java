package dev.zkspring.apps.cli;

import org.springframework.boot.CommandLineRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/** A batch-style application: no web server, one runner that uses its configuration and a lock. */
@SpringBootApplication
@EnableConfigurationProperties(Greeting.class)
public class CommandLineApplication {

	public static void main(String[] args) {
		SpringApplication.run(CommandLineApplication.class, args);
	}

	@Bean
	CommandLineRunner greet(Greeting greeting, Reports reports) {
		return (args) -> reports.write("greeted with " + greeting.getText());
	}

}
