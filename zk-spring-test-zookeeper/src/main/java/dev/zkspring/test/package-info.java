/**
 * Testing with ZooKeeper: {@link dev.zkspring.test.ZooKeeperExtension} (JUnit, no Spring) for a server
 * or an ensemble with faults, and, in {@code zk-spring-test}, the Spring test kit that gives every test
 * context one shared in-process server, {@code @ZkConfig} documents and the {@code ZkTestConfig} bean.
 */
package dev.zkspring.test;
