/**
 * {@link dev.zkspring.autoconfigure.ZkProperties} and the auto-configuration classes, nothing else:
 * each capability's machinery lives in its own package and is wired from here.
 */
@NullMarked
package dev.zkspring.autoconfigure;

import org.jspecify.annotations.NullMarked;
