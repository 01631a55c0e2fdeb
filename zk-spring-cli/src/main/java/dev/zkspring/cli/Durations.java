package dev.zkspring.cli;

import java.time.Duration;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import org.springframework.boot.convert.DurationStyle;

/** Durations as the applications write them ({@code 10s}, {@code 500ms}, {@code PT1M}). */
final class Durations implements ITypeConverter<Duration> {

	@Override
	public Duration convert(String value) {
		try {
			Duration duration = DurationStyle.detectAndParse(value);
			if (duration.isNegative() || duration.isZero()) {
				throw new TypeConversionException("'" + value + "' is not a positive duration such as 10s");
			}
			return duration;
		}
		catch (IllegalArgumentException ex) {
			throw new TypeConversionException("'" + value + "' is not a duration such as 10s or 500ms");
		}
	}

	static String text(Duration duration) {
		return (duration.toMillis() % 1000 == 0) ? duration.toSeconds() + "s" : duration.toMillis() + "ms";
	}

}
