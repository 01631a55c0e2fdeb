package dev.zkspring.distcheck;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * zk-spring-dependencies has no parent (an imported BOM would bring its parent's management of all of Spring
 * Boot), so its versions are written twice: these tests keep them equal to the build's.
 */
class BomTests {

	private final Document bom = parse(Path.of(System.getProperty("zkspring.root"), "zk-spring-dependencies", "pom.xml"));

	@Test
	void bomHasTheProjectsVersion() {
		assertThat(child(this.bom.getDocumentElement(), "version")).isEqualTo(System.getProperty("project.version"));
	}

	@Test
	void bomPinsTheCuratorAndZooKeeperVersionsTheBuildIsTestedWith() {
		Element properties = (Element) this.bom.getElementsByTagName("properties").item(0);
		assertThat(child(properties, "curator.version")).isEqualTo(System.getProperty("curator.version"));
		assertThat(child(properties, "zookeeper.version")).isEqualTo(System.getProperty("zookeeper.version"));
	}

	@Test
	void bomManagesEveryPublishedModuleAndTheZooKeeperClient() {
		Map<String, String> managed = new HashMap<>();
		NodeList dependencies = this.bom.getElementsByTagName("dependency");
		for (int i = 0; i < dependencies.getLength(); i++) {
			Element dependency = (Element) dependencies.item(i);
			managed.put(child(dependency, "groupId") + ":" + child(dependency, "artifactId"), child(dependency, "version"));
		}
		assertThat(managed).containsEntry("dev.zkspring:zk-spring-starter", "${project.version}")
			.containsEntry("dev.zkspring:zk-spring-autoconfigure", "${project.version}")
			.containsEntry("dev.zkspring:zk-spring-test", "${project.version}")
			.containsEntry("dev.zkspring:zk-spring-test-zookeeper", "${project.version}")
			.containsEntry("dev.zkspring:zk-spring-cli", "${project.version}")
			.containsEntry("org.apache.curator:curator-framework", "${curator.version}")
			.containsEntry("org.apache.curator:curator-recipes", "${curator.version}")
			.containsEntry("org.apache.curator:curator-client", "${curator.version}")
			.containsEntry("org.apache.zookeeper:zookeeper", "${zookeeper.version}")
			.containsEntry("org.apache.zookeeper:zookeeper-jute", "${zookeeper.version}");
	}

	private static String child(Element parent, String name) {
		NodeList children = parent.getChildNodes();
		for (int i = 0; i < children.getLength(); i++) {
			if (children.item(i) instanceof Element element && element.getTagName().equals(name)) {
				return element.getTextContent().trim();
			}
		}
		return null;
	}

	private static Document parse(Path pom) {
		try {
			return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
		}
		catch (Exception ex) {
			throw new IllegalStateException("Cannot read " + pom, ex);
		}
	}

}
