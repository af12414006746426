package dev.railyard.agent;

import dev.railyard.check.CheckInput;
import dev.railyard.check.CheckRunner;
import dev.railyard.check.GpuThermalCheck;
import dev.railyard.collect.GpuCollector;
import dev.railyard.collect.InventoryCollector;
import dev.railyard.model.Finding;
import dev.railyard.model.Gpu;
import dev.railyard.model.GpuInventory;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;
import dev.railyard.platform.HostRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The agent, wired as {@code railyard agent --root} wires it, over a copy of the real 4 x H200 capture (no RDMA NIC,
 * eth0 on PCI 0000:00:03.0, GPUs from the saved nvidia-smi XML), served over HTTP and scraped as Prometheus does.
 */
class AgentOnH200CaptureTest {

    static final String ETH0 = "sys/devices/pci0000:00/0000:00:03.0/virtio2/net/eth0";
    /** A sample line of the text exposition: name, optional labels, value. */
    static final Pattern SAMPLE = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{.*})? (\\S+)");

    @TempDir
    Path root;

    final SteppedClock clock = new SteppedClock();
    final HttpClient client = HttpClient.newHttpClient();
    KernelLogFollower kernelLog;
    Agent agent;
    AgentHttpServer server;

    @BeforeEach
    void start() throws Exception {
        copy(Path.of("src/test/resources/trees/h200x4-capture"), root);
        kernelLog = KernelLogFollower.start(HostRoot.at(root));
        HostRoot host = HostRoot.at(root);
        Sampler sampler = new Sampler(host, new InventoryCollector(GpuCollector.forRoot(host), kernelLog, clock, 1),
                CheckRunner.nodeChecks(),
                List.of(new CounterRateDetector(10), new LinkDropDetector(Duration.ofSeconds(30)),
                        new LinkFlapDetector(Duration.ofMinutes(10), 6),
                        new KernelLinkEventDetector(kernelLog, Duration.ofMinutes(10), 6), new PcieReplayDetector(100),
                        new ThermalDetector(85, Duration.ofMinutes(1))),
                Optional.empty(), "vm", clock);
        agent = new Agent(sampler, new HealthTracker("vm", Duration.ofMinutes(5)), Optional.empty(), kernelLog, clock,
                Duration.ofSeconds(1));
        agent.tick();
        server = new AgentHttpServer(new InetSocketAddress("127.0.0.1", 0), agent, Optional.of(AgentHttpTest.TOKEN),
                Duration.ofSeconds(10), clock::now);
        server.start();
    }

    @AfterEach
    void stop() {
        server.close();
        client.close();
        kernelLog.close();
    }

    @Test
    void metricsStayWholeThroughALinkFlapThatTwoDetectorsSee() throws Exception {
        scrape();
        write(ETH0 + "/carrier", "0\n");
        appendKernelLog("[ 3600.100000] mlx5_core 0000:00:03.0 eth0: Link down");
        for (int changes = 3; changes <= 9; changes++) {
            write(ETH0 + "/carrier_changes", changes + "\n");
            write(ETH0 + "/carrier", (changes % 2) + "\n");
            clock.advance(Duration.ofSeconds(20));
            agent.tick();
            String body = scrape();
            assertThat(body).as("after %d carrier changes", changes)
                    .containsPattern("railyard_finding\\{[^}]*check=\"net.carrier\"[^}]*subject=\"eth0\"");
        }
        AgentState s = agent.state();
        ComponentHealth eth0 = s.components().stream().filter(c -> c.component().equals("eth0")).findFirst().orElseThrow();
        assertThat(eth0.state()).isEqualTo(HealthState.UNHEALTHY);
        // both detectors' evidence is kept in the one finding
        assertThat(s.sample().orElseThrow().findings()).filteredOn(f -> f.id().equals("net.carrier"))
                .singleElement().satisfies(f -> assertThat(f.observed()).contains("carrier changes in the last 10 min")
                        .contains("link drop(s) in the kernel log"));
    }

    @Test
    void anXidIsClearedByTheGpuNameTheAgentShows() throws Exception {
        appendKernelLog("[ 4000.000000] NVRM: Xid (PCI:0000:00:07): 79, pid=0, GPU has fallen off the bus.");
        clock.advance(Duration.ofSeconds(1));
        AgentState s = agent.tick();
        assertThat(s.components()).anyMatch(c -> c.component().equals("GPU1 (0000:00:07.0)")
                && c.checkId().equals("gpu.xid") && c.state() == HealthState.UNHEALTHY);

        HttpResponse<String> cleared = clear("GPU1 (0000:00:07.0)");
        assertThat(cleared.statusCode()).isEqualTo(200);
        assertThat(cleared.body()).contains("\"cleared\": 1");
        clock.advance(Duration.ofSeconds(1));
        assertThat(agent.tick().components()).noneMatch(c -> c.checkId().equals("gpu.xid")
                && c.state() == HealthState.UNHEALTHY);
    }

    @Test
    void theCheckAndTheHeatDetectorJudgeOneTemperatureAlike() {
        NodeInventory captured = agent.state().sample().orElseThrow().inventory();
        Instant t0 = Instant.parse("2026-11-22T11:00:00Z");
        for (int celsius : new int[]{84, 85, 86, 89, 90, 95}) {
            NodeInventory hot = withTemperature(captured, celsius, 90);
            Finding check = new GpuThermalCheck().run(CheckInput.withoutSpec(hot)).stream()
                    .filter(f -> f.id().equals("gpu.temperature") && f.subject().startsWith("GPU0 ")).findFirst().orElseThrow();
            ThermalDetector heat = new ThermalDetector(85, Duration.ofMinutes(1));
            heat.observe(hot, t0);
            List<Finding> lasting = heat.observe(hot, t0.plus(Duration.ofMinutes(1)));
            Severity agentSeverity = lasting.stream().filter(f -> f.subject().startsWith("GPU0 ")).map(Finding::severity)
                    .findFirst().orElse(Severity.PASS);
            assertThat(agentSeverity).as("%d C", celsius).isEqualTo(check.severity());
            lasting.stream().filter(f -> f.subject().startsWith("GPU0 ")).forEach(f ->
                    assertThat(f.remediation()).as("%d C", celsius).isEqualTo(check.remediation()));
        }
    }

    @Test
    void aFreshGpuNodeWithNoFabricAndNoSpecIsHealthyWithItsAdviceListed() {
        // NVML on this machine reads 18 active NVLinks per GPU (the capture's "all pairs NV18"); its saved
        // nvidia-smi -q -x has no NVLink state, so the links are given here as NVML reads them
        NodeInventory captured = agent.state().sample().orElseThrow().inventory();
        List<Gpu> gpus = captured.gpu().gpus().stream().map(g -> new Gpu(g.index(), g.pciAddress(), g.source(), g.name(),
                g.uuid(), g.memory(), g.temperatureC(), g.slowdownTemperatureC(), g.powerWatts(), g.powerLimitWatts(),
                g.smClockMhz(), g.clockEvents(), g.ecc(), g.remappedRows(), g.pcieLink(),
                Reading.of(java.util.stream.IntStream.range(0, 18).mapToObj(l -> new Gpu.NvLink(l, true)).toList()),
                g.persistenceMode(), g.pcieReplays(), g.nvlinkErrors(), g.activity())).toList();
        NodeInventory fresh = new NodeInventory(captured.hostname(), captured.takenAt(), captured.root(), captured.host(),
                captured.pciDevices(), new GpuInventory(captured.gpu().nvml(), gpus), captured.rdmaDevices(),
                captured.interfaces(), captured.topology(), captured.xidEvents());
        List<Finding> findings = CheckRunner.nodeChecks().run(CheckInput.withoutSpec(fresh));
        HealthTracker tracker = new HealthTracker("vm", Duration.ofMinutes(5));
        tracker.update(findings, clock.now());

        assertThat(tracker.nodeState()).as(tracker.snapshot().toString()).isEqualTo(HealthState.HEALTHY);
        assertThat(findings).filteredOn(f -> f.id().equals("host.net.buffers")).hasSize(2)
                .allSatisfy(f -> assertThat(f.severity()).isEqualTo(Severity.WARN));
        assertThat(findings).filteredOn(f -> f.id().equals("topo.gpu-nic.affinity")).singleElement().satisfies(f -> {
            assertThat(f.severity()).isEqualTo(Severity.INFO);
            assertThat(f.observed()).startsWith("not applicable");
        });
    }

    static NodeInventory withTemperature(NodeInventory i, int celsius, int slowdown) {
        List<Gpu> gpus = i.gpu().gpus().stream().map(g -> new Gpu(g.index(), g.pciAddress(), g.source(), g.name(), g.uuid(),
                g.memory(), Reading.of(celsius), Reading.of(slowdown), g.powerWatts(), g.powerLimitWatts(), g.smClockMhz(),
                g.clockEvents(), g.ecc(), g.remappedRows(), g.pcieLink(), g.nvlinks(), g.persistenceMode(),
                g.pcieReplays(), g.nvlinkErrors(), g.activity())).toList();
        return new NodeInventory(i.hostname(), i.takenAt(), i.root(), i.host(), i.pciDevices(),
                new GpuInventory(i.gpu().nvml(), gpus), i.rdmaDevices(), i.interfaces(), i.topology(), i.xidEvents());
    }

    /** One scrape: 200, non-empty, every sample line well formed, no series twice (the client refuses duplicates). */
    String scrape() throws Exception {
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(uri("/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("railyard_agent_up 1").contains("DCGM_FI_DEV_GPU_TEMP");
        Set<String> series = new HashSet<>();
        for (String line : r.body().lines().toList()) {
            if (line.isEmpty() || line.startsWith("#")) continue;
            Matcher m = SAMPLE.matcher(line);
            assertThat(m.matches()).as(line).isTrue();
            Double.parseDouble(m.group(3));
            assertThat(series.add(m.group(1) + (m.group(2) == null ? "" : m.group(2)))).as("series twice: " + line).isTrue();
        }
        return r.body();
    }

    HttpResponse<String> clear(String component) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(uri("/api/clear?component="
                        + URLEncoder.encode(component, StandardCharsets.UTF_8)))
                .header("Authorization", "Bearer " + AgentHttpTest.TOKEN).POST(HttpRequest.BodyPublishers.noBody()).build();
        return client.send(req, HttpResponse.BodyHandlers.ofString());
    }

    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.address().getPort() + path);
    }

    void write(String relative, String content) throws IOException {
        Files.writeString(root.resolve(relative), content);
    }

    void appendKernelLog(String line) throws IOException {
        Files.writeString(root.resolve("railyard/dmesg.txt"), line + "\n", StandardOpenOption.APPEND);
    }

    static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isSymbolicLink(p)) Files.createSymbolicLink(t, Files.readSymbolicLink(p));
                else if (Files.isDirectory(p)) Files.createDirectories(t);
                else Files.copy(p, t, StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }
}
