package dev.zkspring.docs.recipes;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.x.discovery.ServiceDiscovery;
import org.apache.curator.x.discovery.ServiceDiscoveryBuilder;
import org.apache.curator.x.discovery.ServiceInstance;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

// docs/curator-recipes.md, service discovery (docs check: DocsSnippetsTests; CuratorRecipesIntegrationTests).

// tag::discovery[]
@Configuration(proxyBeanMethods = false)
class OrdersRegistration {

	@Bean(initMethod = "start", destroyMethod = "close")
	ServiceDiscovery<Void> serviceDiscovery(CuratorFramework client, @Value("${server.port:8080}") int port)
			throws Exception {
		ServiceInstance<Void> self = ServiceInstance.<Void>builder().name("orders").port(port).build();
		return ServiceDiscoveryBuilder.builder(Void.class)
			.client(client)
			.basePath("/services")
			.thisInstance(self)                      // registered on start, an ephemeral node of this session
			.build();
	}

}
// end::discovery[]
