package dev.railyard.bench.sockperf;

import dev.railyard.bench.ListeningPort;
import dev.railyard.diagnose.FakeTools;
import dev.railyard.model.RailyardException;
import dev.railyard.platform.CommandRunner;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SockperfRunnerTest {

    @Test
    void argvAsInSeed001() {
        assertThat(SockperfRunner.serverArgv("10.0.0.2", 11111))
                .containsExactly("sockperf", "server", "-i", "10.0.0.2", "-p", "11111", "--tcp");
        assertThat(SockperfRunner.pingPongArgv("10.0.0.2", 11111, 10))
                .containsExactly("sockperf", "ping-pong", "-i", "10.0.0.2", "-p", "11111", "--tcp", "-t", "10");
    }

    @Test
    void runsTheProgramAndParsesItsSummary(@TempDir Path dir) {
        FakeTools.install(dir, "sockperf", "sockperf/sockperf-doc-pingpong-tcp-ethernet.txt");
        var p = (SockperfResult.PingPong) new SockperfRunner(FakeTools.in(dir)).runPingPong("22.0.0.3", 5001, 10);
        assertThat(p.avgUs()).isEqualTo(9.017);
    }

    @Test
    void missingBinaryNamesThePackages(@TempDir Path dir) {
        assertThatThrownBy(() -> new SockperfRunner(FakeTools.in(dir)).runPingPong("10.0.0.2", 11111, 1))
                .isInstanceOfSatisfying(RailyardException.MissingPrerequisite.class,
                        e -> assertThat(e.hint()).contains("apt-get install -y sockperf"));
    }

    @Test
    @Tag("tools")
    void realSockperfOnLoopback() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/sockperf")), "sockperf not installed");
        int port = 20000 + (int) ((ProcessHandle.current().pid() + 7) % 20000);
        SockperfRunner runner = new SockperfRunner(CommandRunner.system());
        var server = CompletableFuture.runAsync(() -> runner.runServer("127.0.0.1", port, Duration.ofSeconds(6)));
        // its timeout is what stops it
        assertThat(ListeningPort.await(port, Duration.ofSeconds(6), server::isDone)).as("sockperf server listening").isTrue();
        var p = (SockperfResult.PingPong) runner.runPingPong("127.0.0.1", port, 1);
        assertThat(p.avgUs()).isPositive();
        assertThat(p.observations()).isPresent();
        assertThat(p.p99Us()).isPresent();
    }
}
