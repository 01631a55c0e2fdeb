package dev.zkspring.publish;

/**
 * A context document as it is in ZooKeeper now.
 * @param context the context's name
 * @param data the document's bytes (empty when the node does not exist)
 * @param version the node's version; {@code -1} when the node does not exist
 */
public record ConfigDocument(String context, byte[] data, int version) {

	/** Whether the context node exists. */
	public boolean exists() {
		return this.version >= 0;
	}

	/** Names the context and version, never the content, whose values may be secrets. */
	@Override
	public String toString() {
		return "ConfigDocument[" + this.context + ", version=" + this.version + ", " + this.data.length + " bytes]";
	}

}
