package dev.railyard.cluster;

import dev.railyard.model.ClusterSpec;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A step started shielded from the terminal's signals can still be ended by one in the moment before its shell sets
 * the trap (a Ctrl-C right as it starts). That is the user's interrupt, so the step is INTERRUPTED, not a failure
 * with exit 130; the JDK reports a death by signal N as 128 + N.
 */
class TerminalSignalsTest {

    @Test
    void aStepEndedByCtrlCBeforeItsShieldIsInterruptedNotFailed() throws Exception {
        // the signal comes before any trap: what the race looks like from outside
        ChildProcess p = ChildProcess.start("n1", List.of("check"), new ProcessBuilder("sh", "-c", "kill -INT $$"));
        StepResult r = p.await(Duration.ofSeconds(10));
        assertThat(r.status()).isEqualTo(StepStatus.INTERRUPTED);
        assertThat(r.detail()).contains("interrupted");
    }

    @Test
    void aStepThatExitsWithItsOwnCodeKeepsIt() throws Exception {
        ChildProcess p = ChildProcess.start("n1", List.of("check"), new ProcessBuilder("sh", "-c", "exit 1"));
        StepResult r = p.await(Duration.ofSeconds(10));
        assertThat(r.status()).isEqualTo(StepStatus.EXITED);
        assertThat(r.exitCode()).isEqualTo(1);
    }

    @Test
    void theShieldIgnoresCtrlCOnceSet() throws Exception {
        // sh ignores INT from its trap on and execs the program with INT still ignored: it runs to its own end
        ChildProcess p = ChildProcess.start("n1", List.of("check"),
                new ProcessBuilder(TerminalSignals.ignoring(List.of("sh", "-c", "kill -INT $$; exit 3"))));
        StepResult r = p.await(Duration.ofSeconds(10));
        assertThat(r.status()).isEqualTo(StepStatus.EXITED);
        assertThat(r.exitCode()).isEqualTo(3);
    }

    @Test
    void onlyTheSignalsTheShieldIgnoresCount() {
        assertThat(List.of(129, 130, 131, 143)).allMatch(TerminalSignals::endedBeforeShielded);
        assertThat(List.of(0, 1, 2, 3, 4, 127, 137, 255)).noneMatch(TerminalSignals::endedBeforeShielded);
    }

    /**
     * The JDK's spawn helper is in validate's process group until it execs the transport: a Ctrl-C then fails the
     * start ("Failed to exec spawn helper: ... signal: 2"), which ValidateOverSlurmTest hit. That step is interrupted.
     */
    @Test
    void aTransportWhoseStartACtrlCCutIsInterruptedNotALaunchFailure() {
        ClusterSpec.Node n1 = new ClusterSpec.Node("n1", "localhost", java.util.Optional.empty(), java.util.Optional.empty());
        StepResult cut = RunningSteps.notStarted(n1, List.of("check"), new java.io.IOException("Cannot run program \"/usr/bin/setsid\": Failed to exec spawn helper: pid: 12905, signal: 2, error: 0 (none) \nPossible reasons:\n  - Spawn helper ran into JDK version mismatch"), "could not start srun");
        assertThat(cut.status()).isEqualTo(StepStatus.INTERRUPTED);
        assertThat(cut.detail()).contains("interrupted");
        StepResult missing = RunningSteps.notStarted(n1, List.of("check"),
                new java.io.IOException("Cannot run program \"srun\": not found on PATH"), "could not start srun: not found");
        assertThat(missing.status()).isEqualTo(StepStatus.LAUNCH_FAILED);
        assertThat(missing.detail()).isEqualTo("could not start srun: not found");
        assertThat(TerminalSignals.startCutBySignal(new java.io.IOException(
                "Failed to exec spawn helper: pid: 1, signal: 9, error: 0"))).as("SIGKILL is not the terminal's").isFalse();
    }
}
