package dev.railyard.bench.iperf3;

import dev.railyard.bench.ListeningPort;
import dev.railyard.bench.ToolParseException;
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
import static org.assertj.core.api.Assertions.within;

class Iperf3RunnerTest {

    @Test
    void argvAsInSeed001PlusJson() {
        assertThat(Iperf3Runner.serverArgv("10.0.0.2", 5201)).containsExactly("iperf3", "-s", "-B", "10.0.0.2", "-p", "5201", "-1");
        assertThat(Iperf3Runner.clientArgv("10.0.0.2", 5201, 10, 4))
                .containsExactly("iperf3", "-c", "10.0.0.2", "-p", "5201", "-t", "10", "-P", "4", "--json");
    }

    @Test
    void runsTheProgramAndParsesItsJson(@TempDir Path dir) throws Exception {
        FakeTools.install(dir, "iperf3", "iperf3/cloudpilot-iperf3-3.9-json-tcp-10s-omit3.txt");
        Iperf3Result r = new Iperf3Runner(FakeTools.in(dir)).runClient("10.0.0.2", 5201, 10, 1);
        assertThat(r.sentGbps()).isCloseTo(0.464521026, within(1e-9));
        assertThat(Files.readString(dir.resolve("iperf3.argv")).strip()).isEqualTo("-c 10.0.0.2 -p 5201 -t 10 -P 1 --json");
    }

    @Test
    void errorJsonFromTheProgramIsATypedFailure(@TempDir Path dir) {
        FakeTools.install(dir, "iperf3", "iperf3/cloudpilot-iperf3-3.6-json-ERROR-control-socket-closed.txt");
        assertThatThrownBy(() -> new Iperf3Runner(FakeTools.in(dir)).runClient("10.0.0.2", 5201, 10, 1))
                .isInstanceOf(ToolParseException.class).hasMessageContaining("control socket");
    }

    @Test
    void missingBinaryNamesThePackages(@TempDir Path dir) {
        assertThatThrownBy(() -> new Iperf3Runner(FakeTools.in(dir)).runClient("10.0.0.2", 5201, 1, 1))
                .isInstanceOfSatisfying(RailyardException.MissingPrerequisite.class, e -> {
                    assertThat(e.exitCode()).isEqualTo(3);
                    assertThat(e.hint()).contains("apt-get install -y iperf3").contains("dnf install -y iperf3");
                });
    }

    @Test
    @Tag("tools")
    void realIperf3OnLoopback() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/iperf3")), "iperf3 not installed");
        int port = 20000 + (int) (ProcessHandle.current().pid() % 20000);
        Iperf3Runner runner = new Iperf3Runner(CommandRunner.system());
        var server = CompletableFuture.supplyAsync(() -> runner.runServer("127.0.0.1", port, Duration.ofSeconds(20)));
        assertThat(ListeningPort.await(port, Duration.ofSeconds(20), server::isDone)).as("iperf3 -s listening").isTrue();
        Iperf3Result r = runner.runClient("127.0.0.1", port, 1, 1);
        assertThat(r.sentGbps()).isPositive();
        assertThat(r.intervals()).isNotEmpty();
        assertThat(server.get().exitCode()).isZero();
    }
}
