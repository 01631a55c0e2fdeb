package dev.zkspring.client;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Shows a {@link ZkStartupException} as "what went wrong / what to do" instead of a stack trace. */
class ZkStartupFailureAnalyzer extends AbstractFailureAnalyzer<ZkStartupException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, ZkStartupException cause) {
		return new FailureAnalysis(cause.getDescription(), cause.getAction(), cause);
	}

}
