package dev.railyard.cluster;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** validate marks its benchmark steps with its run, so that on a node they share the benchmark lock only with each other. */
class InRunLauncherTest {

    @Test
    void benchmarkStepsCarryTheRunAndOtherStepsAreUnchanged() {
        InRunLauncher l = new InRunLauncher(null, "20261127-093406-8545");
        assertThat(l.marked(List.of("bench", "tcp", "server", "--once", "--bind", "127.0.0.1", "--port", "5201")))
                .containsExactly("bench", "tcp", "server", "--once", "--bind", "127.0.0.1", "--port", "5201",
                        "--in-run", "20261127-093406-8545");
        assertThat(l.marked(List.of("inventory", "--format", "json"))).containsExactly("inventory", "--format", "json");
        assertThat(l.marked(List.of())).isEmpty();
    }
}
