package dev.zkspring.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Serves the applications a test class starts itself ({@code SpringApplication.run(...)}, as Spring Boot's
 * own smoke tests do) with the kit's shared ZooKeeper, as {@code @SpringBootTest} contexts are served — so such
 * a test never dials the packaged {@code zk.connect}. Exists because the kit otherwise acts only on contexts the
 * Spring TestContext framework starts.
 * <p>
 * While the class runs, every application started in the test JVM that uses zk-spring gets the class's own
 * chroot on the shared server (all of them the same one, so several started instances see each other: one
 * leads, they share locks and documents), the class's {@link ZkConfig} documents (written before the first
 * start), and snapshots off. {@link AutoConfigureZooKeeper#replace() Replace.NONE} on the class keeps the
 * configured {@code zk.connect} instead.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(StartedApplications.class)
public @interface ServeStartedApplications {

}
