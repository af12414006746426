package dev.railyard.agent;

import dev.railyard.nativelib.FakeNvmlLibrary;
import dev.railyard.report.Json;
import dev.railyard.testing.RealTool;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The agent's HTTP side over the real H100 port tree and the fake NVML library, checked by the real promtool. */
class AgentHttpTest {

    static final String TOKEN = "0123456789abcdef0123456789abcdef";

    @TempDir
    Path dir;
    @TempDir
    Path libDir;

    FakeNvmlLibrary nvml;
    AgentTree tree;
    Agent agent;
    AgentHttpServer server;
    final HttpClient client = HttpClient.newHttpClient();

    @BeforeEach
    void start() throws Exception {
        nvml = FakeNvmlLibrary.build(libDir);
        tree = new AgentTree(dir);
        agent = tree.agent(Optional.empty(), Optional.of(nvml.path()), Duration.ofMinutes(5), Optional.empty());
        agent.tick();
        server = new AgentHttpServer(new InetSocketAddress("127.0.0.1", 0), agent, Optional.of(TOKEN),
                Duration.ofSeconds(10), tree.clock::now);
        server.start();
    }

    @AfterEach
    void stop() {
        server.close();
        client.close();
        tree.kernelLog.close();
        nvml.close();
    }

    HttpResponse<String> get(String path, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(path));
        if (headers.length > 0) b.headers(headers);
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.address().getPort() + path);
    }

    @Test
    void metricsCarryDcgmAndNodeExporterNamesAndPassPromtool() throws Exception {
        HttpResponse<String> r = get("/metrics");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("text/plain; version=0.0.4");
        String body = r.body();
        // dcgm-exporter's labels and formats: pci_bus_id as NVML writes it, modelName, the driver version label
        String gpu0 = "{DCGM_FI_DRIVER_VERSION=\"550.90.07\",Hostname=\"n1\",UUID=\"GPU-6b5f8a8e-0d9c-4f3e-9a52-1c2d3e4f5a6b\","
                + "device=\"nvidia0\",gpu=\"0\",modelName=\"NVIDIA H100 80GB HBM3\",pci_bus_id=\"00000000:1B:00.0\"} ";
        assertThat(body).contains("DCGM_FI_DEV_GPU_TEMP" + gpu0 + "34.0", "DCGM_FI_DEV_GPU_UTIL" + gpu0 + "87.0",
                "DCGM_FI_DEV_MEM_COPY_UTIL" + gpu0 + "41.0", "DCGM_FI_DEV_ENC_UTIL" + gpu0 + "0.0",
                "DCGM_FI_DEV_DEC_UTIL" + gpu0 + "0.0", "DCGM_FI_DEV_MEM_CLOCK" + gpu0 + "2619.0",
                "DCGM_FI_DEV_MEMORY_TEMP" + gpu0 + "41.0", "DCGM_FI_DEV_PCIE_REPLAY_COUNTER" + gpu0 + "7.0",
                // nvidia-smi's count (nvmlDeviceGetMemoryInfo_v2): used and free without the 512 MiB reserved
                "DCGM_FI_DEV_FB_USED" + gpu0 + "531.0", "DCGM_FI_DEV_FB_RESERVED" + gpu0 + "512.0",
                "DCGM_FI_DEV_FB_FREE" + gpu0 + "80515.0", "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION" + gpu0,
                "DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL" + gpu0)
                .contains("node_infiniband_state_id{device=\"mlx5_0\",port=\"1\"} 4")
                .contains("railyard_node_health{node=\"n1\"}")
                .contains("railyard_nvml_up 1");
        Path promtool = RealTool.require("promtool", "prometheus");
        Process p = new ProcessBuilder(promtool.toString(), "check", "metrics").redirectErrorStream(true).start();
        p.getOutputStream().write(body.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        // promtool parses the body cleanly (exit 1 would be an error); its lint (exit 3) objects only to what
        // dcgm-exporter's own names carry and dashboards join on: the modelName label (also on railyard_gpu_*, so
        // they join with the DCGM series), the _COUNTER in a name, and its counters' names without _total
        assertThat(p.exitValue()).as("promtool check metrics:\n" + out).isIn(0, 3);
        assertThat(out.lines().filter(l -> !l.isBlank()))
                .allMatch(l -> l.matches("(DCGM_FI|railyard_gpu)_\\w+ label names should be written in 'snake_case' not 'camelCase'")
                        || l.equals("DCGM_FI_DEV_PCIE_REPLAY_COUNTER metric name should not include type 'counter'")
                        // dcgm-exporter's counters are counters under its exact names, without _total
                        || l.matches("DCGM_FI_DEV_\\w+ counter metrics should have \"_total\" suffix"));
    }

    @Test
    void openMetricsWhenTheScraperAsksForIt() throws Exception {
        HttpResponse<String> r = get("/metrics", "Accept", "application/openmetrics-text; version=1.0.0; charset=utf-8");
        assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("application/openmetrics-text");
        assertThat(r.body()).endsWith("# EOF\n");
    }

    @Test
    void anUncorrectableEccErrorShowsInMetricsAndHealth() throws Throwable {
        nvml.setGpu0UncorrectedEcc(2);
        tree.clock.advance(Duration.ofSeconds(1));
        agent.tick();
        assertThat(get("/metrics").body()).containsPattern("DCGM_FI_DEV_ECC_DBE_VOL_TOTAL\\{[^}]*gpu=\"0\"[^}]*} 2");
        var health = Json.mapper().readTree(get("/api/health").body());
        assertThat(health.get("schemaVersion").asInt()).isEqualTo(1);
        assertThat(health.get("health").asText()).isEqualTo("UNHEALTHY");
        assertThat(health.get("components").get(0).get("checkId").asText()).isEqualTo("gpu.ecc.uncorrected");
    }

    @Test
    void apiEndpointsAnswerJsonWithASchemaVersion() throws Exception {
        for (String path : List.of("/api/health", "/api/findings", "/api/inventory")) {
            HttpResponse<String> r = get(path);
            assertThat(r.statusCode()).as(path).isEqualTo(200);
            assertThat(Json.mapper().readTree(r.body()).get("schemaVersion").asInt()).as(path).isEqualTo(1);
        }
        assertThat(get("/healthz").statusCode()).isEqualTo(200);
        assertThat(get("/nope").statusCode()).isEqualTo(404);
        assertThat(get("/").body()).contains("<h1>n1").contains("mlx5_0:1");
    }

    @Test
    void healthzIsUnavailableWhenSamplingStalls() throws Exception {
        tree.clock.advance(Duration.ofSeconds(11));
        assertThat(get("/healthz").statusCode()).isEqualTo(503);
    }

    @Test
    void clearingNeedsTheToken() throws Exception {
        HttpRequest none = HttpRequest.newBuilder(uri("/api/clear?component=all")).POST(HttpRequest.BodyPublishers.noBody()).build();
        assertThat(client.send(none, HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(401);
        HttpRequest wrong = HttpRequest.newBuilder(uri("/api/clear?component=all")).header("Authorization", "Bearer nope")
                .POST(HttpRequest.BodyPublishers.noBody()).build();
        assertThat(client.send(wrong, HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(401);
        HttpRequest right = HttpRequest.newBuilder(uri("/api/clear?component=all")).header("Authorization", "Bearer " + TOKEN)
                .POST(HttpRequest.BodyPublishers.noBody()).build();
        HttpResponse<String> r = client.send(right, HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("\"cleared\"");
        HttpRequest get = HttpRequest.newBuilder(uri("/api/clear?component=all")).GET().build();
        assertThat(client.send(get, HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(405);
    }
}
