package dev.zkspring.actuate;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

import dev.zkspring.leader.LeadershipGrantedEvent;
import dev.zkspring.leader.LeadershipListener;
import dev.zkspring.leader.LeadershipRevokedEvent;

/** Remembers when this instance's current leadership of one group began, for the endpoint. */
final class LeadershipSince implements LeadershipListener {

	private volatile @Nullable Instant since;

	@Override
	public void leadershipGranted(LeadershipGrantedEvent event) {
		this.since = Instant.ofEpochMilli(event.getTimestamp());
	}

	@Override
	public void leadershipRevoked(LeadershipRevokedEvent event) {
		this.since = null;
	}

	@Nullable Instant get() {
		return this.since;
	}

}
