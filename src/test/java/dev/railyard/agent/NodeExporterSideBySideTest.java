package dev.railyard.agent;

import dev.railyard.testing.RealTool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The real node_exporter (Debian's 1.5.0) and the agent on the same real H100 port tree (gpud's capture of 8
 * ConnectX-7 ports, plus an Ethernet NIC): every InfiniBand and network series node_exporter writes that the agent
 * serves has the same name, labels and value. node_exporter 1.5 predates the adminstate label of node_network_info
 * (added in later releases, which the agent follows), so that one label is set aside for the comparison.
 */
class NodeExporterSideBySideTest {

    /** The network families the agent serves under node_exporter's names. */
    static final List<String> NETWORK = List.of("node_network_info{", "node_network_speed_bytes{", "node_network_up{",
            "node_network_mtu_bytes{", "node_network_carrier{", "node_network_carrier_changes_total{");

    @Test
    void everyInfinibandAndNetworkSeriesMatchesNodeExporterOnTheSameTree(@TempDir Path dir) throws Exception {
        Path nodeExporter = RealTool.require("prometheus-node-exporter", "prometheus-node-exporter");
        AgentTree tree = new AgentTree(dir);
        // the NIC's identity files as a 100 GbE port writes them
        tree.write(AgentTree.ETH0 + "/speed", "100000\n");
        tree.write(AgentTree.ETH0 + "/address", "b8:3f:d2:0a:1b:2c\n");
        tree.write(AgentTree.ETH0 + "/broadcast", "ff:ff:ff:ff:ff:ff\n");
        tree.write(AgentTree.ETH0 + "/duplex", "full\n");
        tree.write(AgentTree.ETH0 + "/flags", "0x1003\n");
        tree.write(AgentTree.ETH0 + "/ifalias", "uplink\n");
        Agent agent = tree.agent(Optional.empty(), Optional.empty(), Duration.ofMinutes(5), Optional.empty());
        List<String> ours = AgentMetricsTest.metricsText(agent.tick()).lines()
                .map(l -> l.replaceFirst(",?adminstate=\"[a-z]*\"", "").replace("{,", "{"))
                .map(AgentMetricsTest::normaliseNumber).toList();
        List<String> theirs = scrape(nodeExporter, dir).lines()
                .filter(l -> l.startsWith("node_infiniband_") || NETWORK.stream().anyMatch(l::startsWith))
                .filter(l -> AgentMetricsTest.NOT_EXPORTED.stream().noneMatch(l::startsWith))
                .map(AgentMetricsTest::normaliseNumber).toList();
        // 8 ports x 20 counters and more: the six error counters this test was written for among them
        assertThat(theirs).hasSizeGreaterThan(180);
        for (String family : List.of("node_infiniband_symbol_error_total{", "node_infiniband_local_link_integrity_errors_total{",
                "node_infiniband_excessive_buffer_overrun_errors_total{", "node_infiniband_vl15_dropped_total{",
                "node_infiniband_port_receive_remote_physical_errors_total{",
                "node_infiniband_port_receive_switch_relay_errors_total{", "node_network_info{", "node_network_speed_bytes{")) {
            assertThat(theirs).as(family).anyMatch(l -> l.startsWith(family));
        }
        assertThat(ours).containsAll(theirs);
    }

    /** Runs node_exporter on the tree until it has answered one scrape; it says on stderr when it is about to listen. */
    private static String scrape(Path nodeExporter, Path root) throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Process p = new ProcessBuilder(nodeExporter.toString(), "--path.sysfs=" + root.resolve("sys"),
                "--path.procfs=" + root.resolve("proc"), "--path.rootfs=" + root, "--collector.disable-defaults",
                "--collector.infiniband", "--collector.netclass", "--web.listen-address=127.0.0.1:" + port)
                .redirectErrorStream(true).start();
        try {
            // its log is read to the end on one thread: closing the pipe early would end node_exporter with SIGPIPE
            // at its next log line (a Go program's default on a broken stdout)
            CompletableFuture<Boolean> listening = new CompletableFuture<>();
            Thread.ofPlatform().daemon().start(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = r.readLine()) != null) {
                        if (line.contains("Listening on")) listening.complete(true);
                    }
                } catch (java.io.IOException e) {
                    // the process is gone
                }
                listening.complete(false);
            });
            assertThat(listening.get(120, TimeUnit.SECONDS)).as("node_exporter said it listens").isTrue();
            // node_exporter 1.5 logs "Listening on" just before it binds: the first connects may be refused
            HttpResponse<String> r = null;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (r == null) {
                try {
                    r = HttpClient.newHttpClient().send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
                            HttpResponse.BodyHandlers.ofString());
                } catch (java.net.ConnectException e) {
                    if (System.nanoTime() > deadline || !p.isAlive()) throw e;
                }
            }
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.body()).contains("node_scrape_collector_success{collector=\"infiniband\"} 1",
                    "node_scrape_collector_success{collector=\"netclass\"} 1");
            return r.body();
        } finally {
            p.destroy();
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
