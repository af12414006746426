package dev.railyard.agent;

import dev.railyard.Jargon;
import dev.railyard.check.RunnableFixes;
import dev.railyard.model.Finding;
import dev.railyard.model.Gpu;
import dev.railyard.model.GpuInventory;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;
import dev.railyard.nativelib.FakeNvmlLibrary;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every finding of the agent's detectors that carries a fix, each branch reached on the real H100 tree (files flipped,
 * kernel log lines appended, GPU readings from the fake NVML), gives lines a root shell on that node runs as they are:
 * commands that show the evidence and repair, "# " lines only for what hands do, the node's own netdev, port or GPU
 * named and shell-quoted. Every failure is listed at once.
 */
class AgentFixesTest {

    /** A netdev name the kernel allows that no shell should run. */
    private static final String ODD_NETDEV = "eth'1$(reboot)";

    @TempDir
    Path dir;

    private AgentTree tree;
    private Sampler sampler;
    private final List<String> problems = new ArrayList<>();
    private final Set<String> reached = new TreeSet<>();

    @BeforeEach
    void start() throws Exception {
        tree = new AgentTree(Files.createDirectories(dir.resolve("root")));
        tree.addNic(ODD_NETDEV, "0000:00:04.0");
        sampler = tree.sampler(Optional.empty(), Optional.empty());
    }

    private NodeInventory sample() {
        tree.clock.advance(Duration.ofSeconds(1));
        return sampler.sample().inventory();
    }

    @Test
    void aFlappingNetdevGivesRunnableFixes() throws Exception {
        LinkFlapDetector d = new LinkFlapDetector(Duration.ofMinutes(10), 6);
        Instant t = tree.clock.now();
        judge(d.observe(sample(), t));
        for (String nic : List.of(AgentTree.ETH0, "sys/class/net/" + ODD_NETDEV)) tree.write(nic + "/carrier_changes", "3\n");
        judge(d.observe(sample(), t.plusSeconds(60)));
        for (String nic : List.of(AgentTree.ETH0, "sys/class/net/" + ODD_NETDEV)) tree.write(nic + "/carrier_changes", "9\n");
        judge(d.observe(sample(), t.plusSeconds(120)));
        assertThat(reached).contains("net.carrier WARN eth0", "net.carrier FAIL eth0", "net.carrier WARN " + ODD_NETDEV,
                "net.carrier FAIL " + ODD_NETDEV);
        assertThat(problems).isEmpty();
    }

    @Test
    void risingPortCountersGiveRunnableFixes() throws Exception {
        CounterRateDetector d = new CounterRateDetector(10);
        Instant t = tree.clock.now();
        judge(d.observe(sample(), t));
        tree.write(AgentTree.PORT + "/counters/symbol_error", "3\n");
        judge(d.observe(sample(), t.plusSeconds(1)));
        tree.write(AgentTree.PORT + "/counters/symbol_error", "17\n");
        judge(d.observe(sample(), t.plusSeconds(2)));
        assertThat(reached).contains("rdma.counters WARN mlx5_0:1", "rdma.counters FAIL mlx5_0:1");
        assertThat(problems).isEmpty();
    }

    @Test
    void aPortThatLeavesActiveGivesRunnableFixes() throws Exception {
        LinkDropDetector d = new LinkDropDetector(Duration.ofSeconds(30));
        Instant t = tree.clock.now();
        judge(d.observe(sample(), t));
        tree.write(AgentTree.PORT + "/state", "1: DOWN\n");
        tree.write("sys/class/infiniband/mlx5_1/ports/1/state", "2: INIT\n");
        judge(d.observe(sample(), t.plusSeconds(1)));
        judge(d.observe(sample(), t.plusSeconds(31)));
        assertThat(reached).contains("rdma.port.state WARN mlx5_0:1", "rdma.port.state FAIL mlx5_0:1",
                "rdma.port.state WARN mlx5_1:1", "rdma.port.state FAIL mlx5_1:1");
        assertThat(problems).isEmpty();
        // INIT on InfiniBand: no subnet manager, with the one fix check and diagnose give for it
        assertThat(d.observe(sample(), t.plusSeconds(32))).filteredOn(f -> f.subject().equals("mlx5_1:1")).singleElement()
                .satisfies(f -> assertThat(f.remediation()).contains(dev.railyard.check.Fix.START_SUBNET_MANAGER));
    }

    @Test
    void linkDropsInTheKernelLogGiveRunnableFixes() throws Exception {
        KernelLinkEventDetector d = new KernelLinkEventDetector(tree.kernelLog, Duration.ofMinutes(10), 6);
        Instant t = tree.clock.now();
        judge(d.observe(sample(), t));
        List<String> lines = List.of(
                KernelLinkEventTest.realLines("dmesg-gpud-boot-mlx5_core-decode-iso.txt", "enp157s0f1np1: Link down").getFirst(),
                KernelLinkEventTest.realLines("issue-gpud-pr1209-journalctl-k-mlx5-port-link-INIT-ACTIVE.txt",
                        "Port: 1 Link INIT").getFirst(),
                "[   12.5] mlx5_core 0000:9d:00.1 eth$(reboot)': Link down");
        lines.forEach(this::appendKernelLog);
        judge(d.observe(sample(), t.plusSeconds(1)));
        for (int i = 0; i < 5; i++) lines.forEach(this::appendKernelLog);
        judge(d.observe(sample(), t.plusSeconds(2)));
        assertThat(reached).contains("net.carrier WARN enp157s0f1np1", "net.carrier FAIL enp157s0f1np1",
                "rdma.port.state WARN mlx5_5:1", "rdma.port.state FAIL mlx5_5:1", "net.carrier FAIL eth$(reboot)'");
        assertThat(problems).isEmpty();
    }

    @Test
    void risingPcieReplaysAndLastingHeatGiveRunnableFixes() throws Exception {
        NodeInventory eight;
        try (FakeNvmlLibrary nvml = FakeNvmlLibrary.build(Files.createDirectories(dir.resolve("lib")), "FAKE_NVML_EIGHT_GPUS")) {
            eight = tree.sampler(Optional.empty(), Optional.of(nvml.path())).sample().inventory();
        }
        assertThat(eight.gpu().gpus()).hasSize(8);
        PcieReplayDetector replays = new PcieReplayDetector(100);
        ThermalDetector heat = new ThermalDetector(85, Duration.ofMinutes(1));
        Instant t = Instant.parse("2026-11-23T00:00:00Z");
        judge(replays.observe(gpus(eight, 5000, 86), t));
        judge(heat.observe(gpus(eight, 5000, 86), t));
        judge(replays.observe(gpus(eight, 5200, 86), t.plusSeconds(60)));
        judge(heat.observe(gpus(eight, 5200, 86), t.plusSeconds(60)));
        String gpu0 = eight.gpu().gpus().getFirst().subject();
        assertThat(reached).contains("gpu.pcie.link WARN " + gpu0, "gpu.temperature WARN " + gpu0);
        assertThat(problems).isEmpty();
    }

    /** The commands name this node's own netdev, port and GPU, and the drain says why in one short line. */
    @Test
    void fixesNameWhatTheFindingNames() throws Exception {
        LinkFlapDetector flaps = new LinkFlapDetector(Duration.ofMinutes(10), 6);
        Instant t = tree.clock.now();
        flaps.observe(sample(), t);
        tree.write(AgentTree.ETH0 + "/carrier_changes", "9\n");
        assertThat(fixOf(flaps.observe(sample(), t.plusSeconds(60)), "eth0")).isEqualTo("""
                ip -s link show dev eth0
                ethtool -S eth0 | grep -iE 'err|drop|crc'
                dmesg | grep -i eth0
                # the link went down: reseat or replace the cable/transceiver on eth0, or move it to another switch port
                scontrol update nodename=$(hostname -s) state=drain reason='eth0: the link flaps'""");
        tree.write("sys/class/net/" + ODD_NETDEV + "/carrier_changes", "3\n");
        assertThat(fixOf(flaps.observe(sample(), t.plusSeconds(120)), ODD_NETDEV))
                .startsWith("ip -s link show dev 'eth'\\''1$(reboot)'\n");

        CounterRateDetector counters = new CounterRateDetector(10);
        counters.observe(sample(), t);
        tree.write(AgentTree.PORT + "/counters/symbol_error", "3\n");
        assertThat(fixOf(counters.observe(sample(), t.plusSeconds(1)), "mlx5_0:1")).isEqualTo("""
                rdma link show mlx5_0/1
                grep . /sys/class/infiniband/mlx5_0/ports/1/counters/*
                dmesg | grep -i mlx5_0
                # reseat or replace the cable/transceiver on mlx5_0 port 1, or move it to another switch port, then \
                clear the counters and watch whether they rise again
                perfquery -x -C mlx5_0 -P 1
                perfquery -R -C mlx5_0 -P 1""");
    }

    /** The agent shows a fix in /api/health and on its status page whole, and drains Slurm with the reading, not it. */
    @Test
    void theFixReadsWellWhereverTheAgentShowsIt() throws Exception {
        Agent agent = tree.agent(Optional.empty(), Optional.empty(), Duration.ofMinutes(5), Optional.empty());
        agent.tick();
        tree.write(AgentTree.PORT + "/counters/symbol_error", "17\n");
        tree.clock.advance(Duration.ofSeconds(1));
        AgentState s = agent.tick();
        ComponentHealth port = s.components().stream().filter(c -> c.component().equals("mlx5_0:1")).findFirst().orElseThrow();
        assertThat(port.state()).isEqualTo(HealthState.UNHEALTHY);
        assertThat(port.action()).startsWith("rdma link show mlx5_0/1\n").contains("\nscontrol update nodename=");
        assertThat(port.reason()).as("what a drain reason is made of: one short line")
                .isEqualTo("rdma.counters: symbol_error +17 (17 in the last hour) (expected error counters not rising "
                        + "(< 10 per hour))").doesNotContain("\n");

        com.fasterxml.jackson.databind.JsonNode health = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(AgentJson.health(s));
        assertThat(health.findValues("action").stream().map(com.fasterxml.jackson.databind.JsonNode::asText))
                .contains(port.action());
        assertThat(StatusPage.render(s)).contains("td code{white-space:pre-wrap}")
                .contains("<code>rdma link show mlx5_0/1\ngrep . /sys/class/infiniband/mlx5_0/ports/1/counters/*\n");
    }

    private static String fixOf(List<Finding> findings, String subject) {
        return findings.stream().filter(f -> f.subject().equals(subject)).findFirst().orElseThrow().remediation();
    }

    private void appendKernelLog(String line) {
        try {
            tree.appendKernelLog(line);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private void judge(List<Finding> findings) {
        for (Finding f : findings) {
            if (f.remediation().isEmpty()) continue;
            reached.add(f.id() + " " + f.severity() + " " + f.subject());
            String what = f.id() + " " + f.severity() + " " + f.subject();
            RunnableFixes.problem(what, f.remediation()).ifPresent(problems::add);
            if (f.remediation().lines().allMatch(l -> l.startsWith("# "))) {
                problems.add(what + ": only comments:\n" + f.remediation());
            }
            if (f.remediation().lines().noneMatch(l -> !l.startsWith("# ") && names(l, f.subject()))) {
                problems.add(what + ": no command names the subject:\n" + f.remediation());
            }
            if (f.severity() == Severity.FAIL && !f.remediation().contains("scontrol update nodename=$(hostname -s) state=drain")) {
                problems.add(what + ": an UNHEALTHY component's fix does not drain the node:\n" + f.remediation());
            }
            problems.addAll(Jargon.in(what, f.remediation()));
        }
    }

    /** Whether a command line names the finding's netdev, RDMA device and port, or GPU, shell-quoted where need be. */
    private static boolean names(String line, String subject) {
        java.util.regex.Matcher gpu = java.util.regex.Pattern.compile("GPU(\\d+) \\((.+)\\)").matcher(subject);
        if (gpu.matches()) return line.contains(gpu.group(2)) || line.contains("-i " + gpu.group(1));
        java.util.regex.Matcher port = java.util.regex.Pattern.compile("(.+):(\\d+)").matcher(subject);
        String name = port.matches() ? port.group(1) : subject;
        return line.contains(name) || line.contains(name.replace("'", "'\\''"));
    }

    /** Every GPU with this replay count and temperature. */
    private static NodeInventory gpus(NodeInventory i, long replays, int celsius) {
        List<Gpu> gpus = i.gpu().gpus().stream().map(g -> new Gpu(g.index(), g.pciAddress(), g.source(), g.name(), g.uuid(),
                g.memory(), Reading.of(celsius), g.slowdownTemperatureC(), g.powerWatts(), g.powerLimitWatts(), g.smClockMhz(),
                g.clockEvents(), g.ecc(), g.remappedRows(), g.pcieLink(), g.nvlinks(), g.persistenceMode(),
                Reading.of(replays), g.nvlinkErrors(), g.activity())).toList();
        return new NodeInventory(i.hostname(), i.takenAt(), i.root(), i.host(), i.pciDevices(),
                new GpuInventory(i.gpu().nvml(), gpus), i.rdmaDevices(), i.interfaces(), i.topology(), i.xidEvents());
    }
}
