package dev.zkspring.reliability.workload;

import org.quartz.CronScheduleBuilder;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.Scheduled;

import dev.zkspring.jobs.ZkLeaderGroups;
import dev.zkspring.leader.LeaderOnly;
import dev.zkspring.leader.ZkLeaderElection;

/**
 * The leaders' work, in the application's own election and in the leader groups {@code alpha} and
 * {@code beta} ({@code zk.leader.groups} in application.yml): a cron job of each, and a {@code @LeaderOnly}
 * scheduled task of each, journaled with their group and epoch.
 */
@Configuration(proxyBeanMethods = false)
public class LeaderWork {

	/** How the journal names the application's own election. */
	public static final String DEFAULT_GROUP = "default";

	static final String ALPHA = "alpha";

	static final String BETA = "beta";

	private final Journal journal;

	private final ZkLeaderElection election;

	private final ZkLeaderGroups groups;

	LeaderWork(Journal journal, ZkLeaderElection election, ZkLeaderGroups groups) {
		this.journal = journal;
		this.election = election;
		this.groups = groups;
	}

	@Bean
	static JobDetail tickJob() {
		return job("tick");
	}

	@Bean
	static Trigger tickTrigger() {
		return everySecond("tick");
	}

	@Bean
	static JobDetail alphaTickJob() {
		return job("alphaTick");
	}

	@Bean
	static Trigger alphaTickTrigger() {
		return everySecond("alphaTick");
	}

	@Bean
	static JobDetail betaTickJob() {
		return job("betaTick");
	}

	@Bean
	static Trigger betaTickTrigger() {
		return everySecond("betaTick");
	}

	private static JobDetail job(String name) {
		return JobBuilder.newJob(TickJob.class).withIdentity(name).storeDurably().build();
	}

	private static Trigger everySecond(String job) {
		// cron fire times are the same instants on every instance: a fire time run twice is visible
		return TriggerBuilder.newTrigger()
			.forJob(job)
			.withIdentity(job)
			.withSchedule(CronScheduleBuilder.cronSchedule("* * * * * ?"))
			.build();
	}

	@Scheduled(fixedDelay = 300)
	@LeaderOnly
	public Object leaderOnlyTask() throws InterruptedException {
		return call(DEFAULT_GROUP, this.election);
	}

	@Scheduled(fixedDelay = 300)
	@LeaderOnly(group = ALPHA)
	public Object alphaLeaderOnlyTask() throws InterruptedException {
		return call(ALPHA, this.groups.elections().get(ALPHA));
	}

	@Scheduled(fixedDelay = 300)
	@LeaderOnly(group = BETA)
	public Object betaLeaderOnlyTask() throws InterruptedException {
		return call(BETA, this.groups.elections().get(BETA));
	}

	private Object call(String group, ZkLeaderElection groupElection) throws InterruptedException {
		long epoch = groupElection.epoch();
		this.journal.line("OS", group, epoch);
		try {
			Thread.sleep(50);
		}
		finally {
			this.journal.line("OE", group, epoch);
		}
		return null;
	}

}
