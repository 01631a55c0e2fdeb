package dev.zkspring.apps.devtools;

import org.apache.curator.framework.CuratorFramework;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.CommandLineRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * A developer's application with DevTools: every restart (a change on the classpath) closes the context
 * and starts a new one in a new class loader; each start says which value and which session it has.
 */
@SpringBootApplication
public class DevToolsApplication {

	public static void main(String[] args) {
		SpringApplication.run(DevToolsApplication.class, args);
	}

	@Bean
	CommandLineRunner started(CuratorFramework client, @Value("${greeting.text:none}") String greeting) {
		return (args) -> System.out.println("STARTED greeting=" + greeting + " connect=" + client.getZookeeperClient().getCurrentConnectionString() + " session=0x"
				+ Long.toHexString(client.getZookeeperClient().getZooKeeper().getSessionId()));
	}

}
