package dev.railyard.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.railyard.model.ClusterSpec;
import dev.railyard.report.Json;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The whole cluster as its agents see it: every node's /api/health, asked in parallel with a timeout, so one dead
 * node costs the timeout once, not once per node. A node whose agent does not answer is listed as unreachable.
 */
public final class ClusterStatus {

    /**
     * One node's row: its health, or why it has none; the worst component; GPUs and ports judged and not healthy;
     * how old the agent's newest sample was, and whether the agent called that stale (its health is then the last
     * one known, not a live one).
     */
    public record NodeRow(String node, String address, Optional<HealthState> health, String worst, int gpus,
                          int gpusNotHealthy, int ports, int portsNotHealthy, Optional<Long> sampleAgeMs, boolean stale,
                          Optional<String> unreachable) {}

    public record Report(int schemaVersion, String cluster, List<NodeRow> nodes, int unhealthy, int unreachable,
                         int stale) {}

    private ClusterStatus() {
    }

    public static Report poll(ClusterSpec spec, int port, Duration timeout) throws InterruptedException {
        List<NodeRow> rows = new ArrayList<>();
        try (HttpClient client = HttpClient.newBuilder().connectTimeout(timeout).build();
             ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<NodeRow>> asked = new ArrayList<>();
            for (ClusterSpec.Node n : spec.nodes()) asked.add(pool.submit(() -> ask(client, n, port, timeout)));
            for (Future<NodeRow> f : asked) {
                try {
                    rows.add(f.get());
                } catch (java.util.concurrent.ExecutionException e) {
                    throw new IllegalStateException(e.getCause());
                }
            }
        }
        int unhealthy = (int) rows.stream().filter(r -> r.health().orElse(null) == HealthState.UNHEALTHY).count();
        int unreachable = (int) rows.stream().filter(r -> r.unreachable().isPresent()).count();
        int stale = (int) rows.stream().filter(NodeRow::stale).count();
        return new Report(AgentJson.SCHEMA_VERSION, spec.cluster(), rows, unhealthy, unreachable, stale);
    }

    private static NodeRow ask(HttpClient client, ClusterSpec.Node n, int port, Duration timeout) {
        String host = n.address().contains(":") ? "[" + n.address() + "]" : n.address();
        URI uri = URI.create("http://" + host + ":" + port + "/api/health");
        try {
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(uri).timeout(timeout).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) return unreachable(n, "agent answered " + r.statusCode());
            return row(n, Json.mapper().readTree(r.body()));
        } catch (java.net.http.HttpTimeoutException e) {
            return unreachable(n, "no answer from " + uri + " within " + timeout.toMillis() + " ms");
        } catch (java.net.ConnectException e) {
            return unreachable(n, "no agent at " + uri + " (connection refused)");
        } catch (IOException e) {
            return unreachable(n, "no agent at " + uri + " (" + (e.getMessage() == null ? "connection failed" : e.getMessage()) + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return unreachable(n, "interrupted");
        } catch (RuntimeException e) {
            return unreachable(n, "not a railyard agent at " + uri + ": " + e.getMessage());
        }
    }

    private static NodeRow row(ClusterSpec.Node n, JsonNode health) {
        HealthState state = HealthState.valueOf(health.path("health").asText("DEGRADED"));
        String worst = "";
        int gpus = 0, gpusBad = 0, ports = 0, portsBad = 0;
        for (JsonNode c : health.path("components")) {
            String kind = c.path("kind").asText();
            boolean bad = !c.path("state").asText().equals("HEALTHY");
            if (worst.isEmpty() && bad) worst = c.path("component").asText() + ": " + c.path("reason").asText();
            if (kind.equals("GPU")) {
                gpus++;
                if (bad) gpusBad++;
            } else if (kind.equals("PORT")) {
                ports++;
                if (bad) portsBad++;
            }
        }
        JsonNode age = health.path("sampleAgeMs");
        // an agent without the field is an older one: no age known, not called stale
        boolean stale = health.path("stale").asBoolean(false);
        return new NodeRow(n.name(), n.address(), Optional.of(state), worst, gpus, gpusBad, ports, portsBad,
                age.isNumber() ? Optional.of(age.asLong()) : Optional.empty(), stale, Optional.empty());
    }

    private static NodeRow unreachable(ClusterSpec.Node n, String why) {
        return new NodeRow(n.name(), n.address(), Optional.empty(), "", 0, 0, 0, 0, Optional.empty(), false, Optional.of(why));
    }
}
