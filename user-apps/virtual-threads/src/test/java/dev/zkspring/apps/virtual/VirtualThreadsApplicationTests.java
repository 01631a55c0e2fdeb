package dev.zkspring.apps.virtual;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Locks taken from virtual threads: 40 buyers at once on the application's task executor, one inside at a
 * time, each with a fencing token above the one before. Surefire runs this module on the JDK 25 installed
 * beside the default one (the property {@code user-apps.jdk}).
 */
@SpringBootTest
class VirtualThreadsApplicationTests {

	@Autowired
	VirtualThreadsApplication.Buyers buyers;

	@Autowired
	VirtualThreadsApplication.Tickets tickets;

	@Test
	void locksTakenFromVirtualThreadsNeverOverlap() throws Exception {
		assertThat(Runtime.version().feature()).as("virtual threads need Java 21+").isGreaterThanOrEqualTo(21);
		List<CompletableFuture<Void>> bought = IntStream.range(0, 40).mapToObj((i) -> this.buyers.buy("buyer-" + i)).toList();
		CompletableFuture.allOf(bought.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
		assertThat(this.tickets.sales()).hasSize(40).allSatisfy((sale) -> assertThat(sale).endsWith(" virtual"));
		assertThat(this.tickets.mostInside()).isEqualTo(1);
		List<Long> tokens = this.tickets.sales().stream().map((sale) -> Long.parseLong(sale.substring(0, sale.indexOf(' ')))).toList();
		assertThat(tokens).isSorted().doesNotHaveDuplicates();
	}

}
