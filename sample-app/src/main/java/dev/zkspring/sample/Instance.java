package dev.zkspring.sample;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

import dev.zkspring.client.InstanceId;

/**
 * This instance's name: the id the fleet view, canary sets and the leader election use (zk.leader.id, else
 * host, server.port and process id).
 */
@Component
class Instance {

	private final Environment environment;

	private final ObjectProvider<InstanceId> loadedAs;

	Instance(Environment environment, ObjectProvider<InstanceId> loadedAs) {
		this.environment = environment;
		this.loadedAs = loadedAs;
	}

	String id() {
		return this.loadedAs.getIfAvailable(() -> InstanceId.resolve(this.environment)).value();
	}

}
