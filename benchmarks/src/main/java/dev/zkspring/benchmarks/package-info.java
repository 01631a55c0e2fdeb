/**
 * Side-by-side measurements of zk-spring against raw Curator and peer libraries, on one in-process
 * ZooKeeper in one run. Contenders are interleaved and warmed up; results go to {@code RESULTS.md}.
 */
package dev.zkspring.benchmarks;
