package dev.zkspring.sample;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

import dev.zkspring.leader.ZkLeaderElection;

/** This instance's name: the id it has in the leader election (host, port and process id by default). */
@Component
class Instance {

	private final Environment environment;

	private final ObjectProvider<ZkLeaderElection> election;

	Instance(Environment environment, ObjectProvider<ZkLeaderElection> election) {
		this.environment = environment;
		this.election = election;
	}

	String id() {
		ZkLeaderElection election = this.election.getIfAvailable();
		if (election != null && election.isRunning()) {
			return election.participantId();
		}
		return this.environment.getProperty("zk.leader.id", ZkLeaderElection.defaultParticipantId(this.environment));
	}

}
