package dev.zkspring.leader.shard;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

import org.quartz.JobKey;

/**
 * Where sharded jobs keep their state, beside the application's latch node: {@code {latch}.shards/members/{instance}}
 * (ephemeral, one per live instance), {@code .../jobs/{job}/assignment} (the owners in force) and
 * {@code .../jobs/{job}/fires/{fire time}-{trigger}} (one per fire time, with a claim node per shard run).
 */
record ShardPaths(String root) {

	static ShardPaths beside(String latchPath) {
		return new ShardPaths(latchPath + ".shards");
	}

	String members() {
		return this.root + "/members";
	}

	String member(String instance) {
		return members() + "/" + encode(instance);
	}

	String jobs() {
		return this.root + "/jobs";
	}

	String job(JobKey job) {
		return jobs() + "/" + encode(job.toString());
	}

	String assignment(JobKey job) {
		return job(job) + "/assignment";
	}

	String fires(JobKey job) {
		return job(job) + "/fires";
	}

	/** A fire node's name sorts by fire time: millis zero-padded, then the trigger (two triggers may share a time). */
	static String fireName(long fireTime, String trigger) {
		return String.format("%013d", fireTime) + "-" + encode(trigger);
	}

	static String encode(String text) {
		return URLEncoder.encode(text, StandardCharsets.UTF_8);
	}

	static String decode(String text) {
		return URLDecoder.decode(text, StandardCharsets.UTF_8);
	}

}
