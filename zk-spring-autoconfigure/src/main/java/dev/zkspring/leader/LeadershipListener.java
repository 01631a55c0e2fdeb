package dev.zkspring.leader;

/**
 * Reacts to this instance gaining and losing leadership. Registered with
 * {@link ZkLeaderElection#addListener}; every callback of one election runs on its single leadership
 * thread, in order, never on ZooKeeper's event thread, and a grant is always followed by its revocation.
 */
public interface LeadershipListener {

	/**
	 * This instance now leads.
	 * @param event the epoch of the new leadership and why it was granted
	 */
	void leadershipGranted(LeadershipGrantedEvent event);

	/**
	 * This instance no longer leads; stop acting as leader.
	 * @param event the epoch that ended and why
	 */
	void leadershipRevoked(LeadershipRevokedEvent event);

}
