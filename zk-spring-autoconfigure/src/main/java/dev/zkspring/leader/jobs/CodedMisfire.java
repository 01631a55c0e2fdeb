package dev.zkspring.leader.jobs;

import org.quartz.CronScheduleBuilder;
import org.quartz.CronTrigger;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.SimpleTrigger;
import org.quartz.Trigger;

/**
 * A schedule from {@code zk.quartz.jobs} keeps the misfire instruction coded on the job's startup
 * trigger: the configuration changes when the job runs, not what it does after a gap. Across types (a
 * cron trigger given an interval, or the reverse) the instruction maps to its counterpart: fire once
 * now, or wait for the next fire time.
 */
final class CodedMisfire {

	private CodedMisfire() {
	}

	/** The cron schedule with the coded trigger's misfire instruction. */
	static CronScheduleBuilder onCron(Trigger coded, CronScheduleBuilder schedule) {
		int instruction = coded.getMisfireInstruction();
		if (instruction == Trigger.MISFIRE_INSTRUCTION_IGNORE_MISFIRE_POLICY) {
			return schedule.withMisfireHandlingInstructionIgnoreMisfires();
		}
		if (instruction == Trigger.MISFIRE_INSTRUCTION_SMART_POLICY) {
			return schedule;
		}
		if (coded instanceof CronTrigger) {
			return (instruction == CronTrigger.MISFIRE_INSTRUCTION_DO_NOTHING)
					? schedule.withMisfireHandlingInstructionDoNothing()
					: schedule.withMisfireHandlingInstructionFireAndProceed();
		}
		boolean waitsForNext = instruction == SimpleTrigger.MISFIRE_INSTRUCTION_RESCHEDULE_NEXT_WITH_EXISTING_COUNT
				|| instruction == SimpleTrigger.MISFIRE_INSTRUCTION_RESCHEDULE_NEXT_WITH_REMAINING_COUNT;
		return waitsForNext ? schedule.withMisfireHandlingInstructionDoNothing()
				: schedule.withMisfireHandlingInstructionFireAndProceed();
	}

	/** The repeating interval schedule with the coded trigger's misfire instruction. */
	static SimpleScheduleBuilder onInterval(Trigger coded, SimpleScheduleBuilder schedule) {
		int instruction = coded.getMisfireInstruction();
		if (instruction == Trigger.MISFIRE_INSTRUCTION_IGNORE_MISFIRE_POLICY) {
			return schedule.withMisfireHandlingInstructionIgnoreMisfires();
		}
		if (instruction == Trigger.MISFIRE_INSTRUCTION_SMART_POLICY) {
			return schedule;
		}
		if (coded instanceof CronTrigger) {
			return (instruction == CronTrigger.MISFIRE_INSTRUCTION_DO_NOTHING)
					? schedule.withMisfireHandlingInstructionNextWithRemainingCount()
					: schedule.withMisfireHandlingInstructionNowWithExistingCount();
		}
		return switch (instruction) {
			case SimpleTrigger.MISFIRE_INSTRUCTION_FIRE_NOW -> schedule.withMisfireHandlingInstructionFireNow();
			case SimpleTrigger.MISFIRE_INSTRUCTION_RESCHEDULE_NOW_WITH_REMAINING_REPEAT_COUNT ->
				schedule.withMisfireHandlingInstructionNowWithRemainingCount();
			case SimpleTrigger.MISFIRE_INSTRUCTION_RESCHEDULE_NEXT_WITH_EXISTING_COUNT ->
				schedule.withMisfireHandlingInstructionNextWithExistingCount();
			case SimpleTrigger.MISFIRE_INSTRUCTION_RESCHEDULE_NEXT_WITH_REMAINING_COUNT ->
				schedule.withMisfireHandlingInstructionNextWithRemainingCount();
			default -> schedule.withMisfireHandlingInstructionNowWithExistingCount();
		};
	}

}
