package dev.zkspring.leader.quartz;

import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;
import org.quartz.Job;
import org.quartz.JobDataMap;

import org.springframework.beans.BeanUtils;

/**
 * The bean properties of a job class that Quartz's {@code PropertySettingJobFactory} and Spring's
 * {@code SpringBeanJobFactory} set from an execution's job data: data read from ZooKeeper must not
 * name one, or a writer of znodes would configure the application's job.
 */
final class JobProperties {

	private JobProperties() {
	}

	/** The first data key that names a property of the job class (or a nested path into one), or {@code null}. */
	static @Nullable String namedBy(Class<? extends Job> jobClass, JobDataMap triggerData, @Nullable JobDataMap jobData) {
		Set<String> properties = Stream.of(BeanUtils.getPropertyDescriptors(jobClass))
			.map(PropertyDescriptor::getName)
			.collect(Collectors.toSet());
		Stream<String> keys = triggerData.keySet().stream();
		if (jobData != null) {
			keys = Stream.concat(keys, jobData.keySet().stream());
		}
		return keys.filter((key) -> properties.contains(property(key))).findFirst().orElse(null);
	}

	/** The property a key sets: its first segment of a nested path, as a setter name would give it. */
	private static String property(String key) {
		int end = key.length();
		for (int i = 0; i < key.length(); i++) {
			if (key.charAt(i) == '.' || key.charAt(i) == '[') {
				end = i;
				break;
			}
		}
		String first = key.substring(0, end);
		return first.isEmpty() ? first : Introspector.decapitalize(Character.toUpperCase(first.charAt(0)) + first.substring(1));
	}

}
