package dev.railyard.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.railyard.check.CheckRunner;
import dev.railyard.collect.GpuCollector;
import dev.railyard.collect.InventoryCollector;
import dev.railyard.report.Json;
import dev.railyard.platform.HostRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shipped upstream dashboards, unchanged, against the agent: the real Prometheus scrapes an agent on a real
 * captured tree, and every query of every panel, with Grafana's variables filled in, is evaluated by Prometheus.
 * Each must return series, except the ones listed with the reason they cannot (docs/metrics.md, deploy/grafana/README.md).
 */
class DashboardQueriesTest {

    static final Path DCGM = Path.of("deploy/grafana/dcgm-exporter-dashboard.json");
    static final Path NODE_EXPORTER_FULL = Path.of("deploy/grafana/node-exporter-full-network.json");

    /** Queries that return nothing from the agent, and why. */
    static final Map<String, String> EMPTY_BY_DESIGN = Map.of(
            "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE{instance=~\".+\", gpu=~\".+\"}",
            "a DCGM profiling field, from NVML GPM on a live node; a saved nvidia-smi -q -x has no such element",
            "node_network_up{operstate=\"up\",instance=\"%s\",job=\"railyard\"}",
            "node_exporter's node_network_up has only a device label: this query is empty with node_exporter too");

    @Test
    void nvidiasDcgmExporterDashboardOnTheH200Capture(@TempDir Path dir) throws Exception {
        Path tree = Path.of("src/test/resources/trees/h200x4-capture");
        assertQueriesReturnSeries(agentOn(tree), DCGM, dir, Map.of("$instance", ".+", "$gpu", ".+"));
    }

    @Test
    void nodeExporterFullsNetworkPanelsOnTheH100Tree(@TempDir Path dir) throws Exception {
        AgentTree tree = new AgentTree(dir.resolve("tree"));
        tree.write(AgentTree.ETH0 + "/speed", "100000\n");
        Agent agent = tree.agent(Optional.empty(), Optional.empty(), Duration.ofMinutes(5), Optional.empty());
        assertQueriesReturnSeries(agent, NODE_EXPORTER_FULL, dir, Map.of("$job", "railyard"));
    }

    private static Agent agentOn(Path root) {
        SteppedClock clock = new SteppedClock();
        HostRoot host = HostRoot.at(root);
        KernelLogFollower log = KernelLogFollower.start(host);
        Sampler sampler = new Sampler(host, new InventoryCollector(GpuCollector.forRoot(host), log, clock),
                CheckRunner.nodeChecks(), List.of(), Optional.empty(), "n1", clock);
        return new Agent(sampler, new HealthTracker("n1", Duration.ofMinutes(5)), Optional.empty(), log, clock,
                Duration.ofSeconds(1));
    }

    private static void assertQueriesReturnSeries(Agent agent, Path dashboard, Path dir, Map<String, String> variables)
            throws Exception {
        agent.tick();
        try (AgentHttpServer server = new AgentHttpServer(new InetSocketAddress("127.0.0.1", 0), agent, Optional.empty(),
                Duration.ofSeconds(10), java.time.Instant::now)) {
            server.start();
            String target = "127.0.0.1:" + server.address().getPort();
            Files.createDirectories(dir.resolve("prometheus"));
            try (RealPrometheus prometheus = RealPrometheus.scraping(target, dir.resolve("prometheus"))) {
                prometheus.awaitScrapes(3);
                List<String> queries = queries(dashboard);
                assertThat(queries).isNotEmpty();
                List<String> empty = new ArrayList<>();
                for (String q : queries) {
                    String promql = q.replace("$node", target).replace("$__rate_interval", "1m");
                    for (var v : variables.entrySet()) promql = promql.replace(v.getKey(), v.getValue());
                    JsonNode result = prometheus.query(promql);
                    String known = promql.replace(target, "%s");
                    if (EMPTY_BY_DESIGN.containsKey(known)) {
                        assertThat(result).as(promql + ": " + EMPTY_BY_DESIGN.get(known)).isEmpty();
                    } else if (result.isEmpty()) {
                        empty.add(promql);
                    }
                }
                assertThat(empty).as("queries of " + dashboard + " that return no series").isEmpty();
            }
        }
    }

    /** Every panel's query expressions, rows' panels included. */
    static List<String> queries(Path dashboard) throws Exception {
        List<String> out = new ArrayList<>();
        collect(Json.mapper().readTree(dashboard.toFile()).path("panels"), out);
        return out;
    }

    private static void collect(JsonNode panels, List<String> out) {
        for (JsonNode p : panels) {
            collect(p.path("panels"), out);
            for (JsonNode t : p.path("targets")) {
                if (t.hasNonNull("expr") && !t.get("expr").asText().isBlank()) out.add(t.get("expr").asText());
            }
        }
    }
}
