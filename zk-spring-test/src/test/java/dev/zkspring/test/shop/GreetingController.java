package dev.zkspring.test.shop;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** The page a web slice tests: the greeting as configured in ZooKeeper. */
@RestController
public class GreetingController {

	@Value("${shop.greeting:from-yml}")
	private String greeting;

	@GetMapping("/greeting")
	public String greeting() {
		return this.greeting;
	}

}
