package dev.railyard.cluster;

import dev.railyard.model.ClusterSpec;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** The local launcher re-launches this very Railyard as child JVMs; timeouts and close kill them, with their trees. */
class LocalLauncherTest {

    private static final ClusterSpec.Node HERE = new ClusterSpec.Node("here", "127.0.0.1", Optional.empty(), Optional.empty());

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static long children() {
        return ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).count();
    }

    @Test
    void runsARailyardStepAndReturnsItsOutput() throws Exception {
        try (LocalLauncher l = LocalLauncher.ofThisJvm()) {
            assertThat(l.prepare(HERE, Duration.ofSeconds(5)).status()).isEqualTo(StepStatus.EXITED);
            StepResult r = l.run(HERE, List.of("--version"), Duration.ofSeconds(60));
            assertThat(r.status()).as(r.stderr()).isEqualTo(StepStatus.EXITED);
            assertThat(r.completed()).isTrue();
            assertThat(r.stdout()).containsIgnoringCase("railyard");
        }
    }

    @Test
    void aStepPastItsTimeoutIsKilledWithItsTree() throws Exception {
        long before = children();
        try (LocalLauncher l = LocalLauncher.ofThisJvm()) {
            // a server without --once never ends by itself
            StepResult r = l.run(HERE, List.of("bench", "tcp", "server", "--bind", "127.0.0.1", "--port", String.valueOf(freePort())),
                    Duration.ofSeconds(4));
            assertThat(r.status()).isEqualTo(StepStatus.TIMED_OUT);
            assertThat(r.completed()).isFalse();
            assertThat(r.detail()).contains("after the step timeout of 4 s");
        }
        assertThat(children()).isEqualTo(before);
    }

    @Test
    void closeStopsStartedServers() throws Exception {
        long before = children();
        LocalLauncher l = LocalLauncher.ofThisJvm();
        RemoteProcess server = l.start(HERE, List.of("bench", "tcp", "server", "--bind", "127.0.0.1", "--port",
                String.valueOf(freePort())), Duration.ofMinutes(1));
        assertThat(server.isAlive()).isTrue();
        l.close();
        assertThat(server.isAlive()).isFalse();
        assertThat(server.await(Duration.ofSeconds(1)).status()).isEqualTo(StepStatus.INTERRUPTED);
        assertThat(children()).isEqualTo(before);
    }

    @Test
    void aUsageErrorIsAnExitNotALauncherFailure() throws Exception {
        try (LocalLauncher l = LocalLauncher.ofThisJvm()) {
            StepResult r = l.run(HERE, List.of("check", "--no-such-flag"), Duration.ofSeconds(60));
            assertThat(r.status()).isEqualTo(StepStatus.EXITED);
            assertThat(r.exitCode()).isEqualTo(2);
            assertThat(r.completed()).isFalse();
        }
    }
}
