package dev.zkspring.reliability.workload;

import org.springframework.boot.context.properties.ConfigurationProperties;

import dev.zkspring.refresh.RefreshScope;

/**
 * {@code workload.*} from {@code /config/workload}: every document the campaign writes carries the same
 * number twice, so an instance that ever shows two different numbers applied a document in part.
 */
@RefreshScope
@ConfigurationProperties("workload")
public class WorkloadConfig {

	/** The document's version, as the campaign numbered it. */
	private int version;

	/** The same number again. */
	private int copy;

	public int getVersion() {
		return this.version;
	}

	public void setVersion(int version) {
		this.version = version;
	}

	public int getCopy() {
		return this.copy;
	}

	public void setCopy(int copy) {
		this.copy = copy;
	}

}
