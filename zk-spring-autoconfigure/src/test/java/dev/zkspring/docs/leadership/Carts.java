package dev.zkspring.docs.leadership;

import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Service;

import dev.zkspring.leader.LeaderOnly;

/** docs/leadership.md, {@code @LeaderOnly} (docs check: DocsSnippetsTests). */
@Service
class Carts {

	// tag::leader-only[]
	@LeaderOnly
	@Scheduled(fixedRate = 60_000)
	public void purgeExpiredCarts() {
		// runs on the leader only; skipped (returns null) elsewhere
	}
	// end::leader-only[]

}
