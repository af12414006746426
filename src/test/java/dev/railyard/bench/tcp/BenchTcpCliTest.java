package dev.railyard.bench.tcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.railyard.cli.Main;
import dev.railyard.report.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;

import static org.assertj.core.api.Assertions.assertThat;

/** `railyard bench tcp` through the real command line, with captured writers. */
class BenchTcpCliTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        return cl.execute(args);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "client 127.0.0.1 --streams 0                       | --streams must be between 1 and 128",
            "client 127.0.0.1 --mode latency --streams 2        | --streams is for --mode bandwidth",
            "client 127.0.0.1 --duration forever                | --duration: not a duration",
            "client 127.0.0.1 --msg-size 12Q                    | --msg-size: '12Q' is not a size",
            "client 127.0.0.1 --msg-size 128M                   | --msg-size must be between 1 B and 64M",
            "client 127.0.0.1 --bind 127.0.0.1 --interface lo   | give --bind or --interface, not both",
            "client 127.0.0.1 --interface no-such-nic0          | no interface named 'no-such-nic0'",
            "client 127.0.0.1 --count 10                        | --count is for --mode latency",
            "client 127.0.0.1 --port 70000                      | --port must be 1..65535",
            "client 127.0.0.1 --mode sideways                   | Invalid value for option '--mode'",
            "client 127.0.0.1 --format junit                    | Invalid value for option '--format'",
            "client                                             | Missing required parameter: 'ADDR'",
            "server --port 0                                    | --port must be 1..65535",
    })
    void argumentErrorsExitTwoWithAOneLineMessage(String args, String message) {
        String[] argv = ("bench tcp " + args.trim()).split("\\s+");
        assertThat(run(argv)).isEqualTo(2);
        assertThat(err.toString()).contains(message).doesNotContain("Exception").doesNotContain("\tat ");
    }

    @Test
    void noServerIsAMissingPrerequisite() throws IOException {
        int port;
        try (var probe = java.nio.channels.ServerSocketChannel.open()) {
            probe.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            port = ((InetSocketAddress) probe.getLocalAddress()).getPort();
        }
        assertThat(run("bench", "tcp", "client", "127.0.0.1", "--port", "" + port, "--duration", "1s")).isEqualTo(3);
        assertThat(err.toString()).contains("cannot connect to").contains("hint: start 'railyard bench tcp server'");
    }

    @Test
    void jsonBandwidthAndTextLatencyEndToEnd() throws Exception {
        try (TcpBenchServer server = TcpBenchServer.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                line -> { })) {
            Thread serving = Thread.ofPlatform().daemon().start(() -> {
                try {
                    server.serve(false);
                } catch (IOException ignored) {
                    // closed by the try-with-resources
                }
            });
            String port = "" + server.address().getPort();

            assertThat(run("bench", "tcp", "client", "127.0.0.1", "--port", port, "--streams", "2",
                    "--duration", "300ms", "--interval", "100ms", "--msg-size", "64K", "--format", "json")).isZero();
            JsonNode json = Json.mapper().readTree(out.toString());
            assertThat(json.get("schemaVersion").asInt()).isEqualTo(Json.SCHEMA_VERSION);
            assertThat(json.get("streams").asInt()).isEqualTo(2);
            assertThat(json.get("msgSize").asInt()).isEqualTo(65536);
            assertThat(json.get("intervals")).hasSize(3);
            assertThat(json.get("sentBytes").asLong()).isPositive();
            assertThat(json.at("/receiver/value/bytes").asLong()).isEqualTo(json.get("sentBytes").asLong());
            assertThat(err.toString()).as("no progress lines in json mode").isEmpty();
            assertThat(json.at("/findings/0/id").asText()).isEqualTo("bench.tcp.bw");
            assertThat(json.at("/findings/0/severity").asText()).isEqualTo("INFO");

            out.getBuffer().setLength(0);
            assertThat(run("bench", "tcp", "client", "127.0.0.1", "--port", port, "--duration", "100ms",
                    "--expect-gbps", "100000")).as("no loopback moves 100 Tb/s").isEqualTo(1);
            assertThat(out.toString()).contains("FAIL    bench.tcp.bw  127.0.0.1:" + port)
                    .contains("expected: >= 100000.00 Gb/s").contains("fix: # one stream rarely fills a fast link: try --streams 4");
            String progress = err.toString();
            assertThat(progress.indexOf("Connecting to host 127.0.0.1, port " + port + ": 1 stream(s), 128.00 KBytes writes"))
                    .as("the header comes before the interval lines, as iperf3's does").isZero();
            assertThat(progress).contains("\n[SUM] ");

            out.getBuffer().setLength(0);
            assertThat(run("bench", "tcp", "client", "127.0.0.1", "--port", port, "--mode", "latency",
                    "--count", "300", "--warmup", "0", "--expect-latency-us", "1000000")).isZero();
            assertThat(out.toString()).contains("PASS    bench.tcp.lat").contains("expected: <= 1000000.00 µs");
            assertThat(out.toString()).contains("64 B ping-pong").contains("300 round trips")
                    .contains("one-way = round-trip / 2").contains("p99.9");
            assertThat(err.toString()).contains("round trips  avg");
            server.close();
            serving.join(5000);
        }
    }
}
