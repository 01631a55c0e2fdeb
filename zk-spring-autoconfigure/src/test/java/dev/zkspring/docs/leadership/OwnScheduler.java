package dev.zkspring.docs.leadership;

import org.quartz.JobDetail;
import org.quartz.Trigger;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.zkspring.jobs.LeaderGatedSchedulerFactoryBean;
import dev.zkspring.leader.RevokePolicy;
import dev.zkspring.leader.ZkLeaderElection;

/** docs/leadership.md, with your own scheduler (docs check: DocsSnippetsTests). */
@Configuration(proxyBeanMethods = false)
class OwnScheduler {

	// tag::own-scheduler[]
	@Bean
	LeaderGatedSchedulerFactoryBean scheduler(ZkLeaderElection election, JobDetail reportJob, Trigger reportTrigger) {
		LeaderGatedSchedulerFactoryBean factory = new LeaderGatedSchedulerFactoryBean(election);
		factory.setJobDetails(reportJob);
		factory.setTriggers(reportTrigger);
		factory.setOnRevoke(RevokePolicy.INTERRUPT); // default: zk.quartz.on-revoke
		return factory;
	}
	// end::own-scheduler[]

}
