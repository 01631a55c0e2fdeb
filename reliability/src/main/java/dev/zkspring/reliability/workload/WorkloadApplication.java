package dev.zkspring.reliability.workload;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * The application the campaign runs three of: it uses the starter as a user would (a {@code @ZkLock}
 * critical section writing through a fenced store, leader-gated Quartz jobs and {@code @LeaderOnly}
 * scheduled tasks in its own election and in two leader groups, a {@code @RefreshScope} properties bean)
 * and journals what each part did.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
@EnableScheduling
public class WorkloadApplication {

	public static void main(String[] args) {
		SpringApplication.run(WorkloadApplication.class, args);
	}

}
