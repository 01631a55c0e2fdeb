package dev.zkspring.docs.recipes;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.queue.DistributedQueue;
import org.apache.curator.framework.recipes.queue.QueueBuilder;
import org.apache.curator.framework.recipes.queue.QueueConsumer;
import org.apache.curator.framework.recipes.queue.QueueSerializer;
import org.apache.curator.framework.state.ConnectionState;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

// docs/curator-recipes.md, a distributed queue (docs check: DocsSnippetsTests; CuratorRecipesIntegrationTests).

// tag::queue[]
@Configuration(proxyBeanMethods = false)
class MailQueueConfiguration {

	@Bean(initMethod = "start", destroyMethod = "close")
	DistributedQueue<String> mailQueue(CuratorFramework client, MailSender sender) {
		return QueueBuilder.builder(client, sender, new Utf8(), "/queues/mail")
			.lockPath("/queues/mail-locks")           // a message is removed only once consumed
			.buildQueue();
	}

	static class Utf8 implements QueueSerializer<String> {

		@Override
		public byte[] serialize(String item) {
			return item.getBytes(StandardCharsets.UTF_8);
		}

		@Override
		public String deserialize(byte[] bytes) {
			return new String(bytes, StandardCharsets.UTF_8);
		}

	}

}

class MailSender implements QueueConsumer<String> {

	final List<String> sent = new CopyOnWriteArrayList<>();

	@Override
	public void consumeMessage(String message) {   // on whichever instance took it; an exception puts it back
		this.sent.add(message);
	}

	@Override
	public void stateChanged(CuratorFramework client, ConnectionState newState) {
		// zk-spring already logs connection changes and publishes them as events
	}

}
// end::queue[]
