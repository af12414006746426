package dev.railyard.cli;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bench commands' --expect-* thresholds are options like any other: a zero or negative one is a usage error
 * (exit 2) found before anything is probed or run. Before, --expect-mbps -5 ran fio and passed at "&gt;= -5 MiB/s",
 * and --expect-busbw -5 was answered with "NCCL could not be loaded" (exit 3).
 */
class BenchExpectOptionTest {

    @Test
    void aThresholdThatIsNotPositiveIsAUsageError() {
        List<List<String>> bad = List.of(
                List.of("bench", "nccl", "--expect-busbw", "-5"),
                List.of("bench", "storage", "--expect-mbps", "-5", "--runtime", "1"),
                List.of("bench", "storage", "--expect-mbps", "0"),
                List.of("bench", "tcp", "client", "127.0.0.1", "--expect-gbps", "-1"),
                List.of("bench", "tcp", "client", "127.0.0.1", "--mode", "latency", "--expect-latency-us", "0"),
                List.of("bench", "tcp", "client", "127.0.0.1", "--expect-gbps", "NaN"));
        for (List<String> args : bad) {
            CliRun r = CliRun.of(args.toArray(String[]::new));
            assertThat(r.code()).as(args + ": " + r.err()).isEqualTo(2);
            assertThat(r.err()).as(args.toString()).containsAnyOf(" must be a positive number, got ", " cannot be negative, got ",
                    " must be a finite number, got ");
        }
        assertThat(CliRun.of("bench", "nccl", "--expect-busbw", "0").err())
                .contains("--expect-busbw must be a positive number, got 0").contains("e.g. --expect-busbw 40");
        assertThat(CliRun.of("bench", "nccl", "--expect-busbw", "-5").err())
                .contains("--expect-busbw cannot be negative, got -5.0");
    }
}
