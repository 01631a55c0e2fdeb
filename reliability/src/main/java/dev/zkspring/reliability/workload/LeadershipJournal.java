package dev.zkspring.reliability.workload;

import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import dev.zkspring.jobs.ZkLeaderGroups;
import dev.zkspring.leader.LeadershipGrantedEvent;
import dev.zkspring.leader.LeadershipRevokedEvent;
import dev.zkspring.leader.ZkLeaderElection;

/** Journals every grant and revocation with the group whose election changed (or the application's own). */
@Component
public class LeadershipJournal {

	private final Journal journal;

	private final ZkLeaderGroups groups;

	LeadershipJournal(Journal journal, ZkLeaderGroups groups) {
		this.journal = journal;
		this.groups = groups;
	}

	@EventListener
	void granted(LeadershipGrantedEvent event) {
		this.journal.line("G", groupOf(event.getElection()), event.getEpoch());
	}

	@EventListener
	void revoked(LeadershipRevokedEvent event) {
		this.journal.line("R", groupOf(event.getElection()), event.getEpoch(), event.getReason());
	}

	private String groupOf(ZkLeaderElection election) {
		return this.groups.elections()
			.entrySet()
			.stream()
			.filter((entry) -> entry.getValue() == election)
			.map(java.util.Map.Entry::getKey)
			.findFirst()
			.orElse(LeaderWork.DEFAULT_GROUP);
	}

}
