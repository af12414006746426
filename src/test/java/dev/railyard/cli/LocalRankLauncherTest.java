package dev.railyard.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** --procs waits for real child processes: the first failure ends the wait, a timeout ends it too. */
class LocalRankLauncherTest {

    private final StringWriter err = new StringWriter();

    private static Process sh(String script) throws IOException {
        return new ProcessBuilder("sh", "-c", script).start();
    }

    @Test
    void theFirstFailingRankEndsTheWaitWhileAnotherStillRuns() throws Exception {
        Process hanging = sh("exec sleep 600");
        try {
            int code = LocalRankLauncher.await(List.of(hanging, sh("exit 2")), Duration.ofMinutes(10),
                    new PrintWriter(err));
            assertThat(code).isEqualTo(ExitCodes.USAGE);
            assertThat(hanging.isAlive()).isTrue(); // the launcher, not await, stops it
            assertThat(err.toString()).contains("rank 1 ended with status 2; stopping the other ranks");
        } finally {
            hanging.destroyForcibly().waitFor();
        }
    }

    @Test
    void allRanksDoneGivesTheWorstOfPassAndFail() throws Exception {
        assertThat(LocalRankLauncher.await(List.of(sh("exit 0"), sh("exit 1")), Duration.ofMinutes(10),
                new PrintWriter(err))).isEqualTo(ExitCodes.FAIL_FINDING);
    }

    @Test
    void aTimeoutIsAPrerequisiteFailure() throws Exception {
        Process hanging = sh("exec sleep 600");
        try {
            assertThat(LocalRankLauncher.await(List.of(hanging), Duration.ofMillis(50), new PrintWriter(err)))
                    .isEqualTo(ExitCodes.PREREQUISITE);
            assertThat(err.toString()).contains("did not finish within");
        } finally {
            hanging.destroyForcibly().waitFor();
        }
    }

    @Test
    void statusesOutsideOursMapToAPrerequisiteFailure() {
        assertThat(LocalRankLauncher.status(0)).isEqualTo(0);
        assertThat(LocalRankLauncher.status(2)).isEqualTo(2);
        assertThat(LocalRankLauncher.status(ExitCodes.INTERNAL)).isEqualTo(ExitCodes.INTERNAL);
        assertThat(LocalRankLauncher.status(137)).isEqualTo(ExitCodes.PREREQUISITE); // SIGKILL
        assertThat(LocalRankLauncher.status(134)).isEqualTo(ExitCodes.PREREQUISITE); // a JVM abort
        assertThat(LocalRankLauncher.status(70)).isEqualTo(ExitCodes.PREREQUISITE);
    }
}
