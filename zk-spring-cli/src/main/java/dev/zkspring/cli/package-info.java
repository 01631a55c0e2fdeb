/**
 * The operator's command-line tool: {@code zk-spring config get|put|diff|history|rollback|export|import}, a
 * thin layer of picocli commands over {@link dev.zkspring.publish.ConfigPublisher}. Data goes to stdout,
 * diagnostics to stderr, and each outcome has its own exit status ({@link dev.zkspring.cli.Exits}).
 * <p>
 * This package is internal: the tool's contract is its commands, options, output and exit statuses
 * (docs/publishing.md), not these classes, which may change in any release (docs/versioning.md).
 */
@NullMarked
package dev.zkspring.cli;

import org.jspecify.annotations.NullMarked;
