package dev.railyard.cluster;

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
}
