package dev.zkspring.apps.secured;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;

/** A web application whose Spring Security lets only operators reach {@code /actuator/**}. */
@SpringBootApplication
public class SecuredActuatorApplication {

	public static void main(String[] args) {
		SpringApplication.run(SecuredActuatorApplication.class, args);
	}

	@Bean
	SecurityFilterChain security(HttpSecurity http) throws Exception {
		http.authorizeHttpRequests((requests) -> requests.requestMatchers("/actuator/**").hasRole("OPS")
			.anyRequest().permitAll()).httpBasic(Customizer.withDefaults());
		return http.build();
	}

}
