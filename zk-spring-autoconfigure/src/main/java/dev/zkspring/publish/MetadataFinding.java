package dev.zkspring.publish;

/**
 * One key of a document checked against the application's configuration metadata.
 * @param key the flat Spring key
 * @param error whether the value cannot work (a warning otherwise: the key is not declared)
 * @param message what is wrong and what to fix, naming the key and never its value
 */
public record MetadataFinding(String key, boolean error, String message) {
}
