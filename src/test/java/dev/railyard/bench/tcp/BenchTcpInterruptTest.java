package dev.railyard.bench.tcp;

import dev.railyard.cli.Main;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * `bench tcp client` in its own JVM, stopped by Ctrl-C as a terminal sends it (SIGINT to its process group) mid-run:
 * what was measured is printed, marked as stopped early, and the exit code is docs/exit-codes.md's 1 for a benchmark
 * cut short, not the 130 of a JVM ended by SIGINT.
 */
class BenchTcpInterruptTest {

    @Test
    void ctrlCPrintsWhatWasMeasuredAndExitsOne(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/setsid")), "needs setsid (util-linux)");
        try (TcpBenchServer server = TcpBenchServer.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                line -> { })) {
            Thread serving = Thread.ofPlatform().daemon().start(() -> {
                try {
                    server.serve(false);
                } catch (IOException ignored) {
                    // closed by the try-with-resources
                }
            });
            String javaCommand = ProcessHandle.current().info().command().orElse("java");
            Path stdout = dir.resolve("stdout.txt");
            // setsid: the client leads its own process group, as a shell makes a foreground job
            Process client = new ProcessBuilder(List.of("/usr/bin/setsid", javaCommand, "-cp", System.getProperty("java.class.path"),
                    Main.class.getName(), "bench", "tcp", "client", "127.0.0.1", "--port", "" + server.address().getPort(),
                    "--duration", "60s", "--interval", "100ms")).redirectOutput(stdout.toFile()).start();
            try (BufferedReader err = new BufferedReader(new InputStreamReader(client.getErrorStream(), StandardCharsets.UTF_8))) {
                String line;
                int intervals = 0;
                // a few progress lines: the run is measuring
                while (intervals < 3 && (line = err.readLine()) != null) {
                    if (line.contains("bits/sec")) intervals++;
                }
                assertThat(intervals).as("progress lines before the signal").isEqualTo(3);
                Process kill = new ProcessBuilder("kill", "-INT", "--", "-" + client.pid()).inheritIO().start();
                assertThat(kill.waitFor()).isZero();
                assertThat(client.waitFor(30, TimeUnit.SECONDS)).isTrue();
                err.transferTo(java.io.Writer.nullWriter());
            } finally {
                client.destroyForcibly();
            }
            String out = Files.readString(stdout);
            assertThat(out).contains("bench.tcp.bw").contains("run stopped early: interrupted");
            assertThat(client.exitValue()).as("exit code of an interrupted run").isEqualTo(1);
            server.close();
            serving.join(5000);
        }
    }
}
