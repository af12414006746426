package dev.railyard.cli;

import picocli.CommandLine;

import java.time.Duration;

/**
 * A duration where zero has no meaning (a timeout, a sampling interval, a window): zero and negative values are a
 * usage error (exit 2), not a timeout that fires at once or a loop that never sleeps.
 */
public final class PositiveDurationConverter implements CommandLine.ITypeConverter<Duration> {

    @Override
    public Duration convert(String value) {
        Duration d = new DurationConverter().convert(value);
        if (d.isZero()) throw new CommandLine.TypeConversionException("must be longer than zero, got " + value + " (e.g. 5s)");
        return d;
    }
}
