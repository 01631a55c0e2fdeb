package dev.zkspring.leader;

import org.quartz.DisallowConcurrentExecution;
import org.quartz.InterruptableJob;
import org.quartz.JobDataMap;
import org.quartz.JobExecutionContext;

/**
 * A Quartz job that works for {@code work-millis} and records its execution; interruptible, and
 * never run twice at once on one instance, so any overlap the recorder sees is across instances.
 */
@DisallowConcurrentExecution
public class RecordingJob implements InterruptableJob {

	public static final String RECORDER = "recorder";

	public static final String INSTANCE = "instance";

	public static final String WORK_MILLIS = "work-millis";

	private volatile Thread worker;

	@Override
	public void execute(JobExecutionContext context) {
		long start = System.nanoTime();
		this.worker = Thread.currentThread();
		JobDataMap data = context.getMergedJobDataMap();
		try {
			Thread.sleep(data.getLong(WORK_MILLIS));
		}
		catch (InterruptedException ex) {
			// interrupted on losing leadership: stop working
		}
		finally {
			this.worker = null;
			Thread.interrupted();
		}
		((ExecutionRecorder) data.get(RECORDER)).record(data.getString(INSTANCE), LeaderJobs.epoch(context), start,
				System.nanoTime());
	}

	@Override
	public void interrupt() {
		Thread current = this.worker;
		if (current != null) {
			current.interrupt();
		}
	}

}
