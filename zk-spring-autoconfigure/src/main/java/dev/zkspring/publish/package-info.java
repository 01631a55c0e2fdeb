/**
 * Publishing configuration safely: {@link dev.zkspring.publish.ConfigPublisher} validates a context document with
 * the instances' own rules and writes it with compare-and-set, together with its history record, in one
 * ZooKeeper transaction. History, diff, rollback and directory export/import build on the same write.
 */
@NullMarked
package dev.zkspring.publish;

import org.jspecify.annotations.NullMarked;
