package dev.zkspring.docs.publishing;

import java.util.List;

import org.apache.curator.framework.CuratorFramework;

import dev.zkspring.publish.Change;
import dev.zkspring.publish.ConfigPublisher;
import dev.zkspring.publish.Publication;
import dev.zkspring.publish.Revision;

/** The Java snippets of docs/publishing.md, compiled. */
final class PublishingSnippets {

	private PublishingSnippets() {
	}

	static List<Revision> publish(CuratorFramework client, byte[] json) throws Exception {
		// tag::publish[]
		ConfigPublisher publisher = new ConfigPublisher(client, "/config");
		Publication published = publisher.put("orders", json, Change.by("deploy-bot", "release 42"));
		List<Revision> history = publisher.history("orders");
		publisher.rollback("orders", 1, Change.by("alice", "back to the first limits"));
		// end::publish[]
		return (published.written()) ? history : List.of();
	}

}
