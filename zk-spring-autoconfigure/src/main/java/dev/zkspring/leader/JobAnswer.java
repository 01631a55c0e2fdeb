package dev.zkspring.leader;

/**
 * What became of a run, pause or resume request for a leader-gated job, so the caller (the
 * {@code zookeeper} endpoint) can tell an operator whether the leader carried it out.
 * @param status the outcome
 * @param message one line for the operator, naming the job and the instance; never job data
 */
public record JobAnswer(Status status, String message) {

	/** The outcomes of a request. */
	public enum Status {

		/** The leader paused or resumed the job. */
		DONE,

		/** The leader started the run. */
		STARTED,

		/** No job of that group and name exists. */
		UNKNOWN_JOB,

		/** The request is invalid or the leader refused it; the message says why. */
		REFUSED,

		/** No instance leads now: nothing was done. */
		NO_LEADER,

		/** No answer within the timeout: the request was withdrawn, nothing was done. */
		TIMEOUT

	}

}
