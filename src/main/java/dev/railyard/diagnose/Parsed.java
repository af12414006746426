package dev.railyard.diagnose;

import java.util.List;
import java.util.Optional;

/**
 * What diagnose read from the output besides its verdicts: the headline numbers (for people) and the parser's own
 * typed result (for scripts, in --format json). Every parser in bench returns a record, hence {@code Record}.
 */
public record Parsed(List<Measurement> numbers, Optional<Record> result) {

    public Parsed {
        numbers = List.copyOf(numbers);
    }

    public static Parsed none() {
        return new Parsed(List.of(), Optional.empty());
    }

    public Parsed withNumbers(List<Measurement> more) {
        return new Parsed(more, result);
    }

    public static Parsed of(Record result, List<Measurement> numbers) {
        return new Parsed(numbers, Optional.of(result));
    }
}
