package dev.railyard.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.railyard.collect.SourceReads;
import dev.railyard.model.Finding;
import dev.railyard.model.Severity;
import dev.railyard.report.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A running agent over the real H100 node tree, with one RDMA counter turned into a FIFO between samples (the
 * reader's type check is remembered, so the next open blocks as it would on a hung device file). The ports it
 * reads become UNKNOWN; the netdevs and host keep being sampled, and /healthz stays 200.
 */
class AgentStuckSourceTest {

    @TempDir
    Path dir;

    @Test
    void aFifoInPlaceOfACounterMakesThePortsUnknownWhileTheRestKeepsSampling() throws Exception {
        AgentTree tree = new AgentTree(dir);
        SourceReads reads = new SourceReads(Duration.ofSeconds(5), tree.clock);
        tree.reads = Optional.of(reads);
        Agent agent = tree.agent(Optional.empty(), Optional.empty(), Duration.ofMinutes(5), Optional.empty());
        try (AgentHttpServer http = new AgentHttpServer(new InetSocketAddress("127.0.0.1", 0), agent, Optional.empty(),
                Duration.ofSeconds(8), tree.clock::now);
             HttpClient client = HttpClient.newHttpClient()) {
            http.start();
            AgentState first = agent.tick();
            assertThat(first.components()).anyMatch(c -> c.component().equals("mlx5_0:1") && c.state() == HealthState.HEALTHY);
            assertThat(first.components()).anyMatch(c -> c.component().equals("eth0") && c.state() == HealthState.HEALTHY);

            Path fifo = tree.root.resolve(AgentTree.PORT + "/counters/symbol_error");
            Files.delete(fifo);
            assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
            tree.write(AgentTree.ETH0 + "/carrier_changes", "3\n");
            tree.clock.advance(Duration.ofSeconds(1));

            // the reader opens without blocking and refuses the FIFO; were its open to block, the deadline would
            AgentState s = CompletableFuture.supplyAsync(agent::tick).get(30, TimeUnit.SECONDS);
            assertThat(s.sampleCount()).isEqualTo(2);
            assertThat(s.components()).filteredOn(c -> c.component().equals("mlx5_0:1")).singleElement()
                    .matches(c -> c.state() != HealthState.HEALTHY && (c.reason().contains("a FIFO")
                            || c.reason().contains("RDMA ports gave no answer")), "not healthy, saying why");
            assertThat(s.components()).filteredOn(c -> c.component().equals("eth0")).singleElement()
                    .as("netdevs are read by their own source, and the carrier change is seen")
                    .matches(c -> c.state() == HealthState.DEGRADED && c.reason().contains("1 carrier changes in the last 10 min"));

            String base = "http://127.0.0.1:" + http.address().getPort();
            HttpResponse<String> healthz = client.send(HttpRequest.newBuilder(URI.create(base + "/healthz")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(healthz.statusCode()).isEqualTo(200);
            JsonNode health = Json.mapper().readTree(client.send(HttpRequest.newBuilder(URI.create(base + "/api/health")).build(),
                    HttpResponse.BodyHandlers.ofString()).body());
            assertThat(health.path("stale").asBoolean(true)).isFalse();
            assertThat(health.path("sampleAgeMs").asLong(-1)).isZero();
            assertThat(new String(new java.net.URL(base + "/metrics").openStream().readAllBytes()))
                    .as("/metrics keeps answering").contains("railyard_");
        }
    }

    @Test
    void aGpuReaderThatHangsMakesTheGpusUnknownWhileTheRestKeepsSampling() throws Exception {
        AgentTree tree = new AgentTree(dir);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        // NVML stuck in the driver: its first call does not return until the test ends
        tree.gpuCollector = Optional.of(dev.railyard.collect.GpuCollector.keepingOpen(() -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new dev.railyard.nativelib.NvmlLoad.Unavailable("released");
        }));
        SourceReads reads = new SourceReads(Duration.ofSeconds(2), tree.clock);
        tree.reads = Optional.of(reads);
        Agent agent = tree.agent(Optional.empty(), Optional.empty(), Duration.ofMinutes(5), Optional.empty());
        try (AgentHttpServer http = new AgentHttpServer(new InetSocketAddress("127.0.0.1", 0), agent, Optional.empty(),
                Duration.ofSeconds(8), tree.clock::now);
             HttpClient client = HttpClient.newHttpClient()) {
            http.start();
            // without a deadline per source this tick never returns
            AgentState s = CompletableFuture.supplyAsync(agent::tick).get(30, TimeUnit.SECONDS);
            assertThat(s.sample().orElseThrow().stuck()).extracting(SourceReads.Stuck::source)
                    .containsExactly(SourceReads.Source.GPU);
            assertThat(s.sample().orElseThrow().stuck().getFirst().why()).contains("GPUs gave no answer within 2000 ms");
            assertThat(s.components()).anyMatch(c -> c.component().equals("mlx5_0:1") && c.state() == HealthState.HEALTHY);

            // the blocked read is not started again: the next sample is immediate, and one thread stays parked
            tree.write(AgentTree.ETH0 + "/carrier_changes", "3\n");
            tree.clock.advance(Duration.ofSeconds(1));
            s = CompletableFuture.supplyAsync(agent::tick).get(30, TimeUnit.SECONDS);
            assertThat(s.sample().orElseThrow().stuck().getFirst().why()).contains("still give no answer");
            assertThat(reads.blocked()).isEqualTo(1);
            assertThat(s.components()).filteredOn(c -> c.component().equals("eth0")).singleElement()
                    .matches(c -> c.reason().contains("1 carrier changes in the last 10 min"), "netdevs keep being sampled");

            String base = "http://127.0.0.1:" + http.address().getPort();
            assertThat(client.send(HttpRequest.newBuilder(URI.create(base + "/healthz")).build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
            JsonNode health = Json.mapper().readTree(client.send(HttpRequest.newBuilder(URI.create(base + "/api/health")).build(),
                    HttpResponse.BodyHandlers.ofString()).body());
            assertThat(health.path("stuckSources").get(0).path("source").asText()).isEqualTo("GPU");
            assertThat(client.send(HttpRequest.newBuilder(URI.create(base + "/")).build(), HttpResponse.BodyHandlers.ofString())
                    .body()).contains("Not read: the GPUs still give no answer");
            assertThat(client.send(HttpRequest.newBuilder(URI.create(base + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString()).body()).as("/metrics keeps answering").contains("railyard_");
        } finally {
            release.countDown();
        }
    }

    @Test
    void aStalledAgentSaysSoInItsApiItsPageAndRailyardStatus(@TempDir Path specDir) throws Exception {
        AgentTree tree = new AgentTree(dir);
        Agent agent = tree.agent(Optional.empty(), Optional.empty(), Duration.ofMinutes(5), Optional.empty());
        agent.tick();
        try (AgentHttpServer http = new AgentHttpServer(new InetSocketAddress("127.0.0.1", 0), agent, Optional.empty(),
                Duration.ofSeconds(8), tree.clock::now);
             HttpClient client = HttpClient.newHttpClient()) {
            http.start();
            String base = "http://127.0.0.1:" + http.address().getPort();
            // no sample for 9 s: past the 8 s limit
            tree.clock.advance(Duration.ofSeconds(9));
            JsonNode health = Json.mapper().readTree(client.send(HttpRequest.newBuilder(URI.create(base + "/api/health")).build(),
                    HttpResponse.BodyHandlers.ofString()).body());
            assertThat(health.path("stale").asBoolean(false)).isTrue();
            assertThat(health.path("sampleAgeMs").asLong()).isEqualTo(9000);
            String page = client.send(HttpRequest.newBuilder(URI.create(base + "/")).build(), HttpResponse.BodyHandlers.ofString()).body();
            assertThat(page).contains("<span id=\"health\" class=\"STALE\">STALE (last known: ")
                    .contains("the last sample is 9 s old (stale after 8 s)");

            Path spec = specDir.resolve("cluster.yaml");
            Files.writeString(spec, "cluster: lab\nnodes:\n  - {name: n1, address: 127.0.0.1}\n");
            java.io.StringWriter out = new java.io.StringWriter();
            picocli.CommandLine cl = dev.railyard.cli.Main.commandLine();
            cl.setOut(new java.io.PrintWriter(out));
            cl.setErr(new java.io.PrintWriter(new java.io.StringWriter()));
            int rc = cl.execute("status", "--spec", spec.toString(), "--port", String.valueOf(http.address().getPort()),
                    "--timeout", "20s");
            assertThat(out.toString()).containsPattern("n1 +STALE .* 9.0s ago +sampling stalled; last known ")
                    .contains("1 nodes: 0 unhealthy, 0 unreachable, 1 stale");
            assertThat(rc).as("a stale node's health is no promise").isEqualTo(1);

            tree.clock.advance(Duration.ofSeconds(1));
            agent.tick();
            health = Json.mapper().readTree(client.send(HttpRequest.newBuilder(URI.create(base + "/api/health")).build(),
                    HttpResponse.BodyHandlers.ofString()).body());
            assertThat(health.path("stale").asBoolean(true)).isFalse();
        }
    }
}
