package dev.zkspring.leader;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/** {@code zk.quartz.*}: Quartz jobs that fire on the leader only, and their schedules and records. */
@ConfigurationProperties(ZkQuartzProperties.PREFIX)
public class ZkQuartzProperties {

	/** The prefix of these properties. */
	public static final String PREFIX = "zk.quartz";

	/** Whether Spring Boot's Quartz scheduler runs only while this instance leads. */
	private boolean leaderGated = true;

	/** What happens to a job still running when leadership is revoked: let it finish, or interrupt it. */
	private RevokePolicy onRevoke = RevokePolicy.STANDBY;

	/** Per Quartz job name: a schedule (cron or interval) and pause switch that override the job's trigger, applied at runtime. */
	private Map<String, Job> jobs = new LinkedHashMap<>();

	/** How many recent runs per job are kept in ZooKeeper for the endpoint and the status page. */
	private int historySize = 20;

	/** How long a run, pause or resume request waits for the leader's answer before it is withdrawn. */
	private Duration requestTimeout = Duration.ofSeconds(10);

	public boolean isLeaderGated() {
		return this.leaderGated;
	}

	public void setLeaderGated(boolean leaderGated) {
		this.leaderGated = leaderGated;
	}

	public RevokePolicy getOnRevoke() {
		return this.onRevoke;
	}

	public void setOnRevoke(RevokePolicy onRevoke) {
		this.onRevoke = onRevoke;
	}

	public Map<String, Job> getJobs() {
		return this.jobs;
	}

	public void setJobs(Map<String, Job> jobs) {
		this.jobs = jobs;
	}

	public int getHistorySize() {
		return this.historySize;
	}

	public void setHistorySize(int historySize) {
		this.historySize = historySize;
	}

	public Duration getRequestTimeout() {
		return this.requestTimeout;
	}

	public void setRequestTimeout(Duration requestTimeout) {
		this.requestTimeout = requestTimeout;
	}

	/** The schedule of one job, from any configuration source (so a document in ZooKeeper changes it at runtime). */
	public static class Job {

		/** Cron expression replacing the job's trigger schedule; exclusive with interval. */
		private @Nullable String cron;

		/** Fixed interval replacing the job's trigger schedule; exclusive with cron, positive. */
		private @Nullable Duration interval;

		/** Whether the job is paused on the leader; an operator cannot resume a job paused here. */
		private boolean paused;

		public @Nullable String getCron() {
			return this.cron;
		}

		public void setCron(@Nullable String cron) {
			this.cron = cron;
		}

		public @Nullable Duration getInterval() {
			return this.interval;
		}

		public void setInterval(@Nullable Duration interval) {
			this.interval = interval;
		}

		public boolean isPaused() {
			return this.paused;
		}

		public void setPaused(boolean paused) {
			this.paused = paused;
		}

	}

}
