package dev.zkspring.benchmarks;

/** What one N on one ensemble measured; filled in by {@link ScaleRun} as it goes. */
final class ScaleRow {

	final String ensemble;

	final int n;

	double startMillisPerInstance;

	double heapMiBPerInstance;

	Idle idle;

	DetectorTraffic.AtRest detection;

	double fleetReadMillis;

	double fleetWritesPerInstancePerChange;

	double fleetWritesPerSecondDuringChange;

	int lockBurstOps;

	double fleetWritesPerSecondLockBurst;

	Stats fanOut;

	Stats floor;

	double lockOps;

	double lockMaxWaitMillis;

	double rawLockOps;

	double rawLockMaxWaitMillis;

	double failoverMillis;

	double failoverRequests;

	ScaleRow(String ensemble, int n) {
		this.ensemble = ensemble;
		this.n = n;
	}

	/**
	 * The ensemble's view of idle clients, from {@code mntr} summed over the servers.
	 * @param requestsPerSecond packets the servers received per second
	 * @param bytesPerSecond bytes the servers received per second
	 * @param watches watches the servers hold
	 * @param connections client connections the servers hold
	 */
	record Idle(double requestsPerSecond, double bytesPerSecond, double watches, double connections) {

		Idle minus(Idle baseline) {
			return new Idle(this.requestsPerSecond - baseline.requestsPerSecond, this.bytesPerSecond - baseline.bytesPerSecond,
					this.watches - baseline.watches, this.connections - baseline.connections);
		}

		Idle per(int n) {
			return new Idle(this.requestsPerSecond / n, this.bytesPerSecond / n, this.watches / n, this.connections / n);
		}

	}

}
