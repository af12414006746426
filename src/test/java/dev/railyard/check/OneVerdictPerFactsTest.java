package dev.railyard.check;

import dev.railyard.agent.CounterRateDetector;
import dev.railyard.agent.LinkDropDetector;
import dev.railyard.agent.ThermalDetector;
import dev.railyard.diagnose.Diagnoser;
import dev.railyard.diagnose.Diagnosis;
import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.Gpu;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.RdmaDevice;
import dev.railyard.model.RdmaPort;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The same facts through every path that reaches a check ID give one severity and one fix. Paths: `check` (the node
 * checks, no spec), `validate` (the node checks each node runs with the spec, which binds the port), the agent (its
 * detector's time-window fact; its fix is the rule's plus the drain it does itself) and `diagnose` (the facts as
 * ibstat, ibv_devinfo or perfquery print them). A port the spec binds must be up; with no spec a Down port may be
 * unused: so check and diagnose agree with each other, validate and the agent (which saw the port carry traffic)
 * with each other, and the fix is one throughout.
 */
class OneVerdictPerFactsTest {

    private static final String NODE = "gpuserver1";
    private static final String PORT = "mlx4_0:2";
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    /** state, phys_state, link layer, lid, sm_lid; the severities unbound (check, diagnose) and bound (validate, agent). */
    @ParameterizedTest(name = "{0} {1} {2} lid {3} sm_lid {4}")
    @CsvSource({
            "DOWN,   Polling,  InfiniBand, 0, 0, WARN, FAIL",
            "INIT,   LinkUp,   InfiniBand, 0, 0, FAIL, FAIL",
            "DOWN,   LinkUp,   InfiniBand, 0, 1, FAIL, FAIL",
            "DOWN,   Disabled, Ethernet,   0, 0, WARN, FAIL",
            "ARMED,  LinkUp,   InfiniBand, 7, 1, FAIL, FAIL",
            "ACTIVE, LinkUp,   InfiniBand, 7, 0, PASS, PASS",
            "ACTIVE, LinkUp,   Ethernet,   0, 0, PASS, PASS",
    })
    void aPortsStateIsJudgedAlikeEverywhere(String state, String phys, String layer, int lid, int smLid,
                                            Severity unbound, Severity bound) {
        RdmaPort port = port(state, phys, layer, lid, smLid, Inventories.zeroCounters());
        NodeInventory inv = withPort(port);
        Finding check = one(new CheckRunner(CheckRunner.nodeChecks().checks()).run(
                new CheckInput(inv, Optional.empty(), NODE)), CheckId.RDMA_PORT_STATE);
        Finding validate = one(new CheckRunner(CheckRunner.nodeChecks().checks()).run(
                new CheckInput(inv, Optional.of(Inventories.s1Spec()), NODE)), CheckId.RDMA_PORT_STATE);
        Finding ibstat = pasted(diagnose(ibstat(state, phys, layer, lid, smLid)), CheckId.RDMA_PORT_STATE);
        Finding ibv = pasted(diagnose(ibvDevinfo(state, layer, lid, smLid)), CheckId.RDMA_PORT_STATE);
        // ibv_devinfo prints no physical state: its facts are the port's without one
        RdmaPort noPhys = new RdmaPort(port.device(), port.port(), port.state(), Reading.absent("not printed"),
                port.rate(), port.linkLayer(), port.lid(), port.smLid(), port.gids(), port.counters(), port.hwCounters());
        Finding checkNoPhys = one(new CheckRunner(CheckRunner.nodeChecks().checks()).run(
                new CheckInput(withPort(noPhys), Optional.empty(), NODE)), CheckId.RDMA_PORT_STATE);

        assertThat(List.of(check, ibstat)).extracting(Finding::severity).containsOnly(unbound);
        assertThat(ibv.severity()).isEqualTo(checkNoPhys.severity());
        assertThat(ibv.remediation()).isEqualTo(checkNoPhys.remediation());
        assertThat(validate.severity()).isEqualTo(bound);
        if (bound != Severity.PASS) {
            LinkDropDetector drops = new LinkDropDetector(Duration.ofSeconds(30));
            drops.observe(withPort(port("ACTIVE", "LinkUp", layer, lid, smLid, Inventories.zeroCounters())), T0);
            drops.observe(inv, T0.plusSeconds(1));
            Finding agent = one(drops.observe(inv, T0.plusSeconds(32)), CheckId.RDMA_PORT_STATE);
            assertThat(agent.severity()).isEqualTo(bound);
            assertThat(withoutDrain(agent.remediation())).isEqualTo(validate.remediation());
        }
        assertThat(List.of(ibstat, validate)).extracting(Finding::remediation).containsOnly(check.remediation());

        Finding checkPhys = one(new CheckRunner(CheckRunner.nodeChecks().checks()).run(
                new CheckInput(inv, Optional.empty(), NODE)), CheckId.RDMA_PORT_PHYS);
        Finding ibstatPhys = pasted(diagnose(ibstat(state, phys, layer, lid, smLid)), CheckId.RDMA_PORT_PHYS);
        assertThat(ibstatPhys.severity()).isEqualTo(checkPhys.severity());
        assertThat(ibstatPhys.remediation()).isEqualTo(checkPhys.remediation());
    }

    /** An InfiniBand link that is up with sm_lid 0: rdma.ib.sm from sysfs and from ibstat alike. */
    @ParameterizedTest(name = "sm_lid {0}")
    @CsvSource({"0, FAIL", "1, PASS"})
    void theSubnetManagerIsJudgedAlike(int smLid, Severity want) {
        NodeInventory inv = withPort(port("ACTIVE", "LinkUp", "InfiniBand", 7, smLid, Inventories.zeroCounters()));
        Finding check = one(new CheckRunner(CheckRunner.nodeChecks().checks()).run(
                new CheckInput(inv, Optional.empty(), NODE)), CheckId.RDMA_IB_SM);
        Finding ibstat = pasted(diagnose(ibstat("ACTIVE", "LinkUp", "InfiniBand", 7, smLid)), CheckId.RDMA_IB_SM);
        assertThat(List.of(check, ibstat)).extracting(Finding::severity).containsOnly(want);
        assertThat(ibstat.remediation()).isEqualTo(check.remediation());
    }

    /**
     * Error counters seen by one snapshot (check, validate, a pasted perfquery) and by the agent as a rise below its
     * per-hour limit: WARN, with one fix for the link layer (perfquery talks to InfiniBand ports only).
     */
    @ParameterizedTest(name = "{0} {1}={2}")
    @CsvSource({"InfiniBand, symbol_error, 5", "Ethernet, symbol_error, 5", "InfiniBand, link_downed, 3",
            "Ethernet, port_rcv_errors, 9"})
    void errorCountersAreJudgedAlike(String layer, String counter, long value) {
        Map<String, Long> counters = new HashMap<>(Inventories.zeroCounters());
        counters.put(counter, value);
        NodeInventory inv = withPort(port("ACTIVE", "LinkUp", layer, 7, 1, counters));
        Finding check = one(new CheckRunner(CheckRunner.nodeChecks().checks()).run(
                new CheckInput(inv, Optional.empty(), NODE)), CheckId.RDMA_COUNTERS);
        Finding validate = one(new CheckRunner(CheckRunner.nodeChecks().checks()).run(
                new CheckInput(inv, Optional.of(Inventories.s1Spec()), NODE)), CheckId.RDMA_COUNTERS);
        CounterRateDetector rate = new CounterRateDetector(10);
        rate.observe(withPort(port("ACTIVE", "LinkUp", layer, 7, 1, Inventories.zeroCounters())), T0);
        Finding agent = one(rate.observe(inv, T0.plusSeconds(1)), CheckId.RDMA_COUNTERS);

        assertThat(List.of(check, validate, agent)).extracting(Finding::severity).containsOnly(Severity.WARN);
        assertThat(List.of(validate.remediation(), withoutDrain(agent.remediation()))).containsOnly(check.remediation());
        if (layer.equals("InfiniBand")) {
            Diagnosis pasted = Diagnoser.standard().diagnose(perfquery(counters)).diagnoses().stream()
                    .filter(d -> d.finding().id().equals(CheckId.RDMA_COUNTERS.id())).findFirst().orElseThrow();
            assertThat(pasted.severity()).isEqualTo(Severity.WARN);
        }
    }

    /**
     * Port 2 trained below port 1 (40 Gb/sec): without a spec below its sibling (check, a pasted ibstat), with the
     * spec's 40 Gb/sec below the spec (validate). One fix: the cable, then the rate file.
     */
    @ParameterizedTest(name = "{0} Gb/sec")
    @CsvSource({"10, 1X, WARN, FAIL", "40, 4X, INFO, PASS"})
    void aPortsRateIsJudgedAlike(int gbps, String width, Severity unbound, Severity bound) {
        RdmaPort p = port("ACTIVE", "LinkUp", "Ethernet", 0, 0, Inventories.zeroCounters());
        RdmaPort slow = new RdmaPort(p.device(), p.port(), p.state(), p.physState(),
                Reading.of(new RdmaPort.LinkRate(gbps, width, gbps + " Gb/sec (" + width + ")")), p.linkLayer(), p.lid(),
                p.smLid(), p.gids(), p.counters(), p.hwCounters());
        NodeInventory inv = withPort(slow);
        Finding check = one(new CheckRunner(CheckRunner.nodeChecks().checks()).run(
                new CheckInput(inv, Optional.empty(), NODE)), CheckId.RDMA_PORT_RATE);
        Finding validate = one(new CheckRunner(CheckRunner.nodeChecks().checks()).run(
                new CheckInput(inv, Optional.of(Inventories.s1Spec()), NODE)), CheckId.RDMA_PORT_RATE);
        String paste = "CA 'mlx4_0'\n\tCA type: MT4103\n\tNumber of ports: 2\n\tFirmware version: 2.42.5000\n"
                + "\tPort 1:\n\t\tState: Active\n\t\tPhysical state: LinkUp\n\t\tRate: 40\n\t\tBase lid: 0\n"
                + "\t\tLMC: 0\n\t\tSM lid: 0\n\t\tCapability mask: 0x04010000\n\t\tPort GUID: 0x268a07fffe52aab0\n"
                + "\t\tLink layer: Ethernet\n\tPort 2:\n\t\tState: Active\n\t\tPhysical state: LinkUp\n\t\tRate: "
                + gbps + "\n\t\tBase lid: 0\n\t\tLMC: 0\n\t\tSM lid: 0\n\t\tCapability mask: 0x04010000\n"
                + "\t\tPort GUID: 0x268a07fffe52aab1\n\t\tLink layer: Ethernet\n";
        // diagnose lists no INFO "no rate to compare" for a paste: not listed there is that INFO
        Finding ibstat = diagnose(paste).stream().filter(f -> f.id().equals(CheckId.RDMA_PORT_RATE.id())
                && f.subject().equals(PORT)).findFirst().orElse(Finding.of(CheckId.RDMA_PORT_RATE.id(), Severity.INFO,
                PORT, "not listed", "", ""));
        assertThat(List.of(check, ibstat)).extracting(Finding::severity).containsOnly(unbound);
        assertThat(validate.severity()).isEqualTo(bound);
        assertThat(List.of(ibstat.remediation(), validate.remediation())).containsOnly(check.remediation());
    }

    /** One temperature: the check's reading and the agent's reading held for its window. */
    @ParameterizedTest(name = "{0} C")
    @CsvSource({"80, PASS", "85, PASS", "86, WARN", "87, FAIL", "95, FAIL"})
    void aGpuTemperatureIsJudgedAlike(int celsius, Severity want) {
        NodeInventory base = Inventories.s1();
        List<Gpu> hot = base.gpu().gpus().stream().map(g -> at(g, celsius)).toList();
        NodeInventory inv = Inventories.withGpus(base, hot);
        String subject = hot.getFirst().subject();
        Finding check = new CheckRunner(CheckRunner.nodeChecks().checks()).run(new CheckInput(inv, Optional.empty(), NODE))
                .stream().filter(f -> f.id().equals(CheckId.GPU_TEMPERATURE.id()) && f.subject().equals(subject))
                .findFirst().orElseThrow();
        ThermalDetector heat = new ThermalDetector(85, Duration.ofMinutes(1));
        heat.observe(inv, T0);
        Optional<Finding> agent = heat.observe(inv, T0.plusSeconds(60)).stream()
                .filter(f -> f.subject().equals(subject)).findFirst();
        assertThat(check.severity()).isEqualTo(want);
        assertThat(agent.map(Finding::severity).orElse(Severity.PASS)).isEqualTo(want);
        agent.ifPresent(a -> assertThat(withoutDrain(a.remediation())).isEqualTo(check.remediation()));
    }

    /** A GPU's row remapper as NVML reads it and as nvidia-smi -q prints it, for the same GPU. */
    @ParameterizedTest(name = "pending {0} failure {1}")
    @CsvSource({"true, false, WARN", "false, true, FAIL", "true, true, FAIL"})
    void aRowRemapIsJudgedAlike(boolean pending, boolean failure, Severity want) {
        NodeInventory base = Inventories.s1();
        Gpu g = base.gpu().gpus().getFirst();
        Gpu remapped = new Gpu(g.index(), "0000:3b:00.0", g.source(), g.name(), g.uuid(), g.memory(), g.temperatureC(),
                g.slowdownTemperatureC(), g.powerWatts(), g.powerLimitWatts(), g.smClockMhz(), g.clockEvents(), g.ecc(),
                Reading.of(new Gpu.RemappedRows(0, 1, pending, failure)), g.pcieLink(), g.nvlinks(),
                g.persistenceMode(), g.pcieReplays(), g.nvlinkErrors(), g.activity());
        Finding check = new CheckRunner(CheckRunner.nodeChecks().checks())
                .run(new CheckInput(Inventories.withGpus(base, List.of(remapped)), Optional.empty(), NODE)).stream()
                .filter(f -> f.id().equals(CheckId.GPU_ECC_UNCORRECTED.id()) && f.subject().endsWith("row remap"))
                .findFirst().orElseThrow();
        String paste = "==============NVSMI LOG==============\n\nDriver Version                            : 535.54.03\n"
                + "Attached GPUs                             : 1\nGPU 00000000:3B:00.0\n"
                + "    Product Name                          : NVIDIA A100-SXM4-80GB\n"
                + "    Remapped Rows\n        Correctable Error                 : 0\n"
                + "        Uncorrectable Error               : 0\n"
                + "        Pending                           : " + (pending ? "Yes" : "No") + "\n"
                + "        Remapping Failure Occurred        : " + (failure ? "Yes" : "No") + "\n";
        List<Finding> pasted = diagnose(paste).stream()
                .filter(f -> f.id().equals(CheckId.GPU_ECC_UNCORRECTED.id()) && f.severity() == want).toList();
        assertThat(check.severity()).isEqualTo(want);
        assertThat(pasted).extracting(Finding::remediation).contains(check.remediation());
    }

    private static Gpu at(Gpu g, int celsius) {
        return new Gpu(g.index(), g.pciAddress(), g.source(), g.name(), g.uuid(), g.memory(), Reading.of(celsius),
                g.slowdownTemperatureC(), g.powerWatts(), g.powerLimitWatts(), g.smClockMhz(), g.clockEvents(), g.ecc(),
                g.remappedRows(), g.pcieLink(), g.nvlinks(), g.persistenceMode(), g.pcieReplays(), g.nvlinkErrors(),
                g.activity());
    }

    private static String withoutDrain(String fix) {
        return fix.lines().filter(l -> !l.startsWith("scontrol update nodename=")).collect(Collectors.joining("\n"));
    }

    private static Finding one(List<Finding> findings, CheckId id) {
        return findings.stream().filter(f -> f.id().equals(id.id()) && f.subject().equals(PORT)).findFirst()
                .orElseThrow(() -> new AssertionError(id + " " + PORT + " not among " + findings));
    }

    /** A paste's verdict on the port: diagnose lists what is wrong and counts what passed, so not listed is a PASS. */
    private static Finding pasted(List<Finding> findings, CheckId id) {
        return findings.stream().filter(f -> f.id().equals(id.id()) && f.subject().equals(PORT)).findFirst()
                .orElse(Finding.pass(id.id(), PORT, "passed", ""));
    }

    private static List<Finding> diagnose(String paste) {
        return Diagnoser.standard().diagnose(paste).diagnoses().stream().map(Diagnosis::finding).toList();
    }

    private static RdmaPort port(String state, String phys, String layer, int lid, int smLid, Map<String, Long> counters) {
        int code = List.of("NOP", "DOWN", "INIT", "ARMED", "ACTIVE").indexOf(state);
        int physCode = switch (phys) {
            case "Polling" -> 2;
            case "Disabled" -> 3;
            default -> 5;
        };
        Map<String, Reading<Long>> c = new HashMap<>();
        counters.forEach((k, v) -> c.put(k, Reading.of(v)));
        return new RdmaPort("mlx4_0", 2, Reading.of(new RdmaPort.PortState(code, state)),
                Reading.of(new RdmaPort.PortState(physCode, phys)),
                Reading.of(new RdmaPort.LinkRate(40, "4X", "40 Gb/sec (4X QDR)")), Reading.of(layer), Reading.of(lid),
                Reading.of(smLid), Inventories.seed000Gids(), c, Map.of());
    }

    /** S1's node with mlx4_0 port 2 (the port the spec binds to rail0) as given. */
    private static NodeInventory withPort(RdmaPort p2) {
        NodeInventory s1 = Inventories.s1();
        RdmaDevice d = s1.rdmaDevices().getFirst();
        List<RdmaPort> ports = d.ports().stream().map(p -> p.port() == 2 ? p2 : p).toList();
        return Inventories.withRdma(s1, List.of(new RdmaDevice(d.name(), d.firmwareVersion(), d.nodeGuid(), d.boardId(),
                d.hcaType(), d.pciAddress(), ports)));
    }

    /** The port as ibstat prints it: ibstat shows a port with no LID as base lid 65535 on InfiniBand. */
    private static String ibstat(String state, String phys, String layer, int lid, int smLid) {
        String name = switch (state) {
            case "DOWN" -> "Down";
            case "INIT" -> "Initializing";
            case "ARMED" -> "Armed";
            default -> "Active";
        };
        int baseLid = lid == 0 && layer.equals("InfiniBand") ? 65535 : lid;
        return "CA 'mlx4_0'\n\tCA type: MT4103\n\tNumber of ports: 2\n\tFirmware version: 2.42.5000\n"
                + "\tPort 2:\n\t\tState: " + name + "\n\t\tPhysical state: " + phys + "\n\t\tRate: 40\n"
                + "\t\tBase lid: " + baseLid + "\n\t\tLMC: 0\n\t\tSM lid: " + smLid + "\n"
                + "\t\tCapability mask: 0x02514868\n\t\tPort GUID: 0x248a0703005aab01\n\t\tLink layer: " + layer + "\n";
    }

    private static String ibvDevinfo(String state, String layer, int lid, int smLid) {
        int code = List.of("NOP", "DOWN", "INIT", "ARMED", "ACTIVE").indexOf(state);
        return "hca_id:\tmlx4_0\n\ttransport:\t\t\tInfiniBand (0)\n\tfw_ver:\t\t\t\t2.42.5000\n"
                + "\t\tport:\t2\n\t\t\tstate:\t\t\tPORT_" + state + " (" + code + ")\n"
                + "\t\t\tmax_mtu:\t\t4096 (5)\n\t\t\tactive_mtu:\t\t4096 (5)\n\t\t\tsm_lid:\t\t\t" + smLid + "\n"
                + "\t\t\tport_lid:\t\t" + lid + "\n\t\t\tport_lmc:\t\t0x00\n\t\t\tlink_layer:\t\t" + layer + "\n";
    }

    /** perfquery's counters of one port, as it prints them. */
    private static String perfquery(Map<String, Long> counters) {
        Map<String, String> names = Map.of("symbol_error", "SymbolErrorCounter", "link_error_recovery",
                "LinkErrorRecoveryCounter", "link_downed", "LinkDownedCounter", "port_rcv_errors", "PortRcvErrors",
                "port_rcv_remote_physical_errors", "PortRcvRemotePhysicalErrors", "port_xmit_discards",
                "PortXmitDiscards", "port_xmit_constraint_errors", "PortXmitConstraintErrors",
                "port_rcv_constraint_errors", "PortRcvConstraintErrors", "local_link_integrity_errors",
                "LocalLinkIntegrityErrors", "excessive_buffer_overrun_errors", "ExcessiveBufferOverrunErrors");
        StringBuilder out = new StringBuilder("# Port counters: Lid 7 port 2 (CapMask: 0x1600)\nPortSelect:......................2\n");
        names.forEach((sysfs, field) -> out.append(field).append(":").append(".".repeat(Math.max(2, 33 - field.length())))
                .append(counters.getOrDefault(sysfs, 0L)).append('\n'));
        out.append("PortXmitData:....................1000\nPortRcvData:.....................1000\n");
        return out.toString();
    }
}
