package dev.railyard.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.railyard.collect.GpuCollector;
import dev.railyard.collect.SourceReads;
import dev.railyard.nativelib.NvmlLoad;
import dev.railyard.report.Json;
import dev.railyard.testing.RealTool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The agent's faults injected at random into a running agent over the real H100 node tree, with its HTTP server up:
 * a FIFO where a counter was, a port that vanishes, a link flapping between samples, a source that throws, the
 * clock jumping back or forward, an Xid. After each: the sample completes, /metrics answers whole, the faulted
 * component is not HEALTHY (with a reason) and no other component changed; after healing and a clear, all is as
 * before. {@code -Dchaos.faults=N} and {@code -Dchaos.seed=S} set the run (scripts/chaos-agent.sh).
 */
class AgentChaosTest {

    enum Fault { FIFO_COUNTER, VANISHED_PORT, CARRIER_FLAPS, THROWING_SOURCE, CLOCK_JUMP, XID }

    /** One series line of the text format: name, labels, a number. */
    private static final Pattern SAMPLE = Pattern.compile(
            "[a-zA-Z_:][a-zA-Z0-9_:]*(\\{.*})? (-?[0-9.]+([eE][+-]?[0-9]+)?|NaN|[+-]Inf)");

    @TempDir
    Path dir;
    @TempDir
    Path aside;

    @Test
    void injectedFaultsLeaveMetricsWholeAndHealthTruthful() throws Exception {
        int faults = Integer.getInteger("chaos.faults", 24);
        long seed = Long.getLong("chaos.seed", 20261127L);
        Random random = new Random(seed);
        AgentTree tree = new AgentTree(dir);
        AtomicBoolean gpuThrows = new AtomicBoolean();
        tree.gpuCollector = Optional.of(GpuCollector.withNvml(() -> {
            if (gpuThrows.get()) throw new IllegalStateException("nvmlInit: Driver/library version mismatch");
            return new NvmlLoad.Unavailable("no NVML in this tree");
        }));
        tree.reads = Optional.of(new SourceReads(Duration.ofSeconds(5), tree.clock));
        Agent agent = tree.agent(Optional.empty(), Optional.empty(), Duration.ofMinutes(5), Optional.empty());
        int lost = 0;
        List<String> wrong = new ArrayList<>();
        Map<Fault, Integer> injected = new HashMap<>();
        try (AgentHttpServer http = new AgentHttpServer(new InetSocketAddress("127.0.0.1", 0), agent, Optional.empty(),
                Duration.ofSeconds(8), tree.clock::now);
             HttpClient client = HttpClient.newHttpClient()) {
            http.start();
            String base = "http://127.0.0.1:" + http.address().getPort();
            Map<String, HealthState> baseline = states(tick(agent));
            assertThat(baseline).containsEntry("mlx5_0:1", HealthState.HEALTHY).containsEntry("mlx5_1:1", HealthState.HEALTHY)
                    .containsEntry("eth0", HealthState.HEALTHY);
            String lastMetrics = "";
            for (int i = 0; i < faults; i++) {
                Fault fault = Fault.values()[random.nextInt(Fault.values().length)];
                injected.merge(fault, 1, Integer::sum);
                AgentState s;
                try {
                    s = inject(fault, tree, agent, gpuThrows, random);
                } catch (Exception e) {
                    lost++;
                    wrong.add(i + " " + fault + ": the sample was lost: " + e);
                    heal(fault, tree, gpuThrows);
                    agent.clear("all");
                    continue;
                }
                String metrics = get(client, base + "/metrics");
                if (!whole(metrics)) {
                    lost++;
                    wrong.add(i + " " + fault + ": /metrics not whole");
                }
                lastMetrics = metrics;
                Set<String> faulted = faulted(fault);
                Map<String, HealthState> now = states(s);
                for (String c : faulted) {
                    if (now.getOrDefault(c, HealthState.HEALTHY) == HealthState.HEALTHY) {
                        wrong.add(i + " " + fault + ": " + c + " is " + now.getOrDefault(c, null) + " under the fault");
                    }
                }
                if (fault == Fault.THROWING_SOURCE) {
                    JsonNode health = Json.mapper().readTree(get(client, base + "/api/health"));
                    if (!health.path("stuckSources").toString().contains("GPU")) {
                        wrong.add(i + " " + fault + ": /api/health does not name the GPU source: " + health.path("stuckSources"));
                    }
                }
                for (var e : baseline.entrySet()) {
                    // the node's health follows its components'
                    if (faulted.contains(e.getKey()) || e.getKey().equals("n1")) continue;
                    if (now.get(e.getKey()) != e.getValue()) {
                        wrong.add(i + " " + fault + ": " + e.getKey() + " went " + e.getValue() + " -> " + now.get(e.getKey()));
                    }
                }
                heal(fault, tree, gpuThrows);
                agent.clear("all");
                tree.clock.advance(Duration.ofSeconds(1 + random.nextInt(30)));
                Map<String, HealthState> healed = states(tick(agent));
                if (!healed.equals(baseline)) wrong.add(i + " " + fault + ": not as before after healing: " + healed);
            }
            Path promtool = RealTool.require("promtool", "prometheus");
            Process p = new ProcessBuilder(promtool.toString(), "check", "metrics").redirectErrorStream(true).start();
            p.getOutputStream().write(lastMetrics.getBytes(StandardCharsets.UTF_8));
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as(out).isIn(0, 3);
        }
        System.out.println(faults + " faults injected (" + injected + ", seed " + seed + "), " + lost
                + " lost samples, " + wrong.size() + " wrong healths");
        assertThat(wrong).as("seed " + seed).isEmpty();
        assertThat(lost).isZero();
    }

    private static Set<String> faulted(Fault f) {
        return switch (f) {
            case FIFO_COUNTER -> Set.of("mlx5_0:1");
            case VANISHED_PORT -> Set.of("mlx5_1:1");
            case CARRIER_FLAPS -> Set.of("eth0");
            case THROWING_SOURCE, CLOCK_JUMP -> Set.of();
            case XID -> Set.of("n1");
        };
    }

    private AgentState inject(Fault f, AgentTree tree, Agent agent, AtomicBoolean gpuThrows, Random random) throws Exception {
        switch (f) {
            case FIFO_COUNTER -> {
                Path counter = tree.root.resolve(AgentTree.PORT + "/counters/symbol_error");
                Files.delete(counter);
                assertThat(new ProcessBuilder("mkfifo", counter.toString()).start().waitFor()).isZero();
            }
            case VANISHED_PORT -> Files.move(tree.root.resolve("sys/class/infiniband/mlx5_1"), aside.resolve("mlx5_1"));
            case CARRIER_FLAPS -> {
                // the link goes and comes back between samples, six times; the kernel's counter stands still
                for (int k = 0; k < 5; k++) {
                    tree.write(AgentTree.ETH0 + "/carrier", k % 2 == 0 ? "0\n" : "1\n");
                    tree.clock.advance(Duration.ofSeconds(5 + random.nextInt(20)));
                    tick(agent);
                }
                tree.write(AgentTree.ETH0 + "/carrier", "1\n");
            }
            case THROWING_SOURCE -> gpuThrows.set(true);
            case CLOCK_JUMP -> tree.clock.advance(random.nextBoolean() ? Duration.ofHours(-1) : Duration.ofDays(1));
            case XID -> tree.appendKernelLog("[ 1234.567890] NVRM: Xid (PCI:0000:1b:00): 79, pid=0, GPU has fallen off the bus.");
        }
        tree.clock.advance(Duration.ofSeconds(1 + random.nextInt(5)));
        return tick(agent);
    }

    private void heal(Fault f, AgentTree tree, AtomicBoolean gpuThrows) throws Exception {
        switch (f) {
            case FIFO_COUNTER -> {
                Path counter = tree.root.resolve(AgentTree.PORT + "/counters/symbol_error");
                Files.delete(counter);
                Files.writeString(counter, "0\n");
            }
            case VANISHED_PORT -> Files.move(aside.resolve("mlx5_1"), tree.root.resolve("sys/class/infiniband/mlx5_1"));
            case CARRIER_FLAPS, CLOCK_JUMP, XID -> { }
            case THROWING_SOURCE -> gpuThrows.set(false);
        }
    }

    /** A sample within a deadline: a tick that never returns is a lost sample, not a hung test. */
    private static AgentState tick(Agent agent) throws Exception {
        return CompletableFuture.supplyAsync(agent::tick).get(60, TimeUnit.SECONDS);
    }

    private static Map<String, HealthState> states(AgentState s) {
        Map<String, HealthState> m = new HashMap<>();
        for (ComponentHealth c : s.components()) m.merge(c.component(), c.state(), (a, b) -> a.ordinal() >= b.ordinal() ? a : b);
        m.put("n1", s.health());
        return m;
    }

    private static String get(HttpClient client, String url) throws Exception {
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(url).isEqualTo(200);
        return r.body();
    }

    /** Every line a comment or one sample, no series twice, ending with a newline. */
    private static boolean whole(String metrics) {
        if (!metrics.endsWith("\n")) return false;
        Set<String> series = new HashSet<>();
        for (String line : metrics.split("\n")) {
            if (line.startsWith("#")) continue;
            if (!SAMPLE.matcher(line).matches() || !series.add(line.substring(0, line.lastIndexOf(' ')))) {
                System.out.println("not whole at: " + line);
                return false;
            }
        }
        return true;
    }
}
