package dev.railyard.cli;

import dev.railyard.bench.tcp.Units;
import picocli.CommandLine;

import java.time.Duration;

/** Durations as people type them: 10s, 500ms, 2m, 1h; a bare number is seconds. Bad text is a usage error (exit 2). */
public final class DurationConverter implements CommandLine.ITypeConverter<Duration> {

    @Override
    public Duration convert(String value) {
        try {
            Duration d = Units.parseDuration(value);
            if (d.isNegative()) throw new CommandLine.TypeConversionException("a duration cannot be negative: " + value);
            return d;
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }
}
