package dev.zkspring.test;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.jspecify.annotations.Nullable;

import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.core.io.Resource;
import org.springframework.test.context.TestContextAnnotationUtils;
import org.springframework.util.StringUtils;

import dev.zkspring.config.ZkConfigInitializer;
import dev.zkspring.test.AutoConfigureZooKeeper.Replace;

/**
 * What a test class asks of the kit: which ZooKeeper, and the documents to seed. A value (part of the
 * test context's cache key), read from {@link AutoConfigureZooKeeper} and {@link ZkConfig}.
 * @param replace which ZooKeeper the context uses
 * @param documents the documents to write before the context starts
 */
record ZkTestSettings(Replace replace, List<Document> documents) {

	static ZkTestSettings of(Class<?> testClass) {
		AutoConfigureZooKeeper zooKeeper = TestContextAnnotationUtils.findMergedAnnotation(testClass,
				AutoConfigureZooKeeper.class);
		List<Document> documents = AnnotatedElementUtils.findMergedRepeatableAnnotations(testClass, ZkConfig.class)
			.stream()
			.map((zkConfig) -> Document.of(testClass, zkConfig))
			.toList();
		return new ZkTestSettings((zooKeeper != null) ? zooKeeper.replace() : Replace.ANY, documents);
	}

	/** The same choice of ZooKeeper with nothing to seed. */
	ZkTestSettings withoutDocuments() {
		return new ZkTestSettings(this.replace, List.of());
	}

	/** Write the documents where the application will read them: its ensemble, namespace and root. */
	void seed(Binder binder, String connect, @Nullable ClassLoader classLoader) {
		if (this.documents.isEmpty()) {
			return;
		}
		DefaultResourceLoader resources = new DefaultResourceLoader(classLoader);
		String namespace = binder.bind("zk.namespace", String.class).orElse(null);
		try (CuratorFramework client = SharedZooKeeper.connected(connect, namespace)) {
			for (Document document : this.documents) {
				String znode = ZkConfigInitializer.contextZnode(binder, document.context());
				byte[] data = document.content(resources);
				try {
					client.create().creatingParentsIfNeeded().forPath(znode, data);
				}
				catch (KeeperException.NodeExistsException ex) {
					client.setData().forPath(znode, data);
				}
			}
		}
		catch (RuntimeException ex) {
			throw ex;
		}
		catch (Exception ex) {
			throw new IllegalStateException("Could not write the @ZkConfig documents " + this.documents
					+ " to ZooKeeper at " + connect, ex);
		}
	}

	/**
	 * One {@link ZkConfig}.
	 * @param context the context name
	 * @param json the document, or empty
	 * @param location the document's resource, or empty
	 */
	record Document(String context, String json, String location) {

		static Document of(Class<?> testClass, ZkConfig zkConfig) {
			String where = "@ZkConfig(context = \"" + zkConfig.context() + "\") on " + testClass.getName();
			if (!StringUtils.hasText(zkConfig.context()) || zkConfig.context().contains("/")) {
				throw new IllegalStateException(where + " needs a context name without '/', such as \"orders\".");
			}
			if (StringUtils.hasText(zkConfig.json()) == StringUtils.hasText(zkConfig.location())) {
				throw new IllegalStateException(where + " needs exactly one of json and location.");
			}
			return new Document(zkConfig.context(), zkConfig.json(), zkConfig.location());
		}

		byte[] content(DefaultResourceLoader resources) throws IOException {
			if (StringUtils.hasText(this.json)) {
				return this.json.getBytes(java.nio.charset.StandardCharsets.UTF_8);
			}
			Resource resource = resources.getResource(this.location);
			if (!resource.exists()) {
				throw new IllegalStateException("@ZkConfig(context = \"" + this.context + "\", location = \""
						+ this.location + "\"): no such resource.");
			}
			try (InputStream in = resource.getInputStream()) {
				return in.readAllBytes();
			}
		}

	}

}
