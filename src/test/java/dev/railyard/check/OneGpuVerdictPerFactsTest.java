package dev.railyard.check;

import dev.railyard.agent.GpuPresenceDetector;
import dev.railyard.agent.KernelLogFollower;
import dev.railyard.collect.KernelLogCollector;
import dev.railyard.diagnose.Diagnoser;
import dev.railyard.diagnose.Diagnosis;
import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.Gpu;
import dev.railyard.model.PcieLink;
import dev.railyard.platform.HostRoot;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;
import dev.railyard.model.XidEvent;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The same GPU facts through every path that reaches a gpu.* ID give one severity and one fix: `check` (the node
 * checks), the agent (its kernel-log follower feeding the same checks), and `diagnose` (the facts as the tool prints
 * them). The subject names the GPU by its normalised PCI address on every path.
 */
class OneGpuVerdictPerFactsTest {

    private static final String NODE = "gpuserver1";

    /**
     * Xid lines of one GPU and code: the kernel log as check reads it, as the agent follows it, and pasted into
     * diagnose. The GPU is in the inventory (0000:3b:00, S1's GPU0) or not (0000:5e:00). Diagnose does not know the
     * node, so its fix names it "$(hostname -s)".
     */
    @ParameterizedTest(name = "Xid {0} at {1}: {3}")
    @CsvSource(delimiter = '|', value = {
            "13  | 0000:3b:00 | Graphics SM Warp Exception on (GPC 0, TPC 1)          | WARN",
            "45  | 0000:3b:00 | Ch 00000010, engmask 00000101                          | INFO",
            "48  | 0000:5e:00 | An uncorrectable double bit error                      | FAIL",
            "79  | 0000:3b:00 | GPU has fallen off the bus.                            | FAIL",
            "149 | 0000:5e:00 | NETIR_LINK_EVT Fatal error detected on link 3          | FAIL",
            "154 | 0000:3b:00 | GPU recovery action changed from 0x0 (None) to 0x2 (Node Reboot Required) | FAIL",
            "9999| 0000:3B:00 | something new                                          | WARN",
    })
    void anXidIsJudgedAlikeEverywhere(int code, String address, String message, String want, @TempDir Path dir)
            throws IOException {
        List<String> log = List.of(
                "[  100.000001] NVRM: Xid (PCI:" + address + "): " + code + ", pid=1234, name=python3, Ch 00000008",
                "[  101.000001] NVRM: Xid (PCI:" + address + "): " + code + ", pid=1234, name=python3, " + message);
        Finding check = xid(runChecks(KernelLogCollector.parse(log)));

        Files.createDirectories(dir.resolve("railyard"));
        Files.write(dir.resolve("railyard/dmesg.txt"), log);
        Finding agent;
        try (KernelLogFollower follower = KernelLogFollower.start(HostRoot.at(dir))) {
            agent = xid(runChecks(follower.collect(HostRoot.at(dir)).optional().orElseThrow()));
        }
        Finding pasted = Diagnoser.standard().diagnose(String.join("\n", log)).diagnoses().stream()
                .map(Diagnosis::finding).filter(f -> f.id().equals(CheckId.GPU_XID.id())).findFirst().orElseThrow();

        assertThat(List.of(check, agent, pasted)).extracting(Finding::severity)
                .containsOnly(Severity.valueOf(want));
        assertThat(agent.remediation()).isEqualTo(check.remediation());
        assertThat(pasted.remediation()).isEqualTo(check.remediation().replace(NODE, "$(hostname -s)"));
        assertThat(agent.subject()).isEqualTo(check.subject());
        String normalised = "0000:" + address.substring(5).toLowerCase(java.util.Locale.ROOT) + ".0";
        assertThat(pasted.subject()).isEqualTo("GPU " + normalised);
        if (address.startsWith("0000:5e")) assertThat(check.subject()).isEqualTo(pasted.subject());
    }

    /**
     * A GPU that was there and is gone: validate (the spec wants S1's 2 GPUs, the node shows 1) and the agent (it saw
     * both, now one) give FAIL and one fix; the agent knows the GPU's address, so its lspci names it, and it drains.
     */
    @org.junit.jupiter.api.Test
    void aMissingGpuIsJudgedAlike() {
        NodeInventory both = Inventories.s1();
        NodeInventory one = Inventories.withGpus(both, List.of(both.gpu().gpus().getFirst()));
        Finding validate = new CheckRunner(CheckRunner.nodeChecks().checks())
                .run(new CheckInput(one, Optional.of(Inventories.s1Spec()), NODE)).stream()
                .filter(f -> f.id().equals(CheckId.GPU_COUNT.id()) && f.subject().equals(NODE)).findFirst().orElseThrow();
        GpuPresenceDetector presence = new GpuPresenceDetector();
        presence.observe(both, java.time.Instant.parse("2026-01-01T00:00:00Z"));
        Finding agent = presence.observe(one, java.time.Instant.parse("2026-01-01T00:00:10Z")).getFirst();
        assertThat(List.of(validate, agent)).extracting(Finding::severity).containsOnly(Severity.FAIL);
        assertThat(sansLspciAndDrain(agent.remediation())).isEqualTo(sansLspciAndDrain(validate.remediation()));
        assertThat(agent.remediation()).contains("lspci -s 00000000:d8:00.0");
        assertThat(validate.remediation()).contains("lspci -nn -d 10de:");
    }

    /** One GPU's PCIe link as NVML reads it and as nvidia-smi -q prints it (generation and width sections). */
    @ParameterizedTest(name = "Gen{0} of {1}, x{2} of {3}")
    @CsvSource({"1, 4, 16, 16, INFO", "4, 4, 8, 16, WARN", "4, 4, 16, 16, PASS", "2, 4, 4, 16, WARN"})
    void aGpusPcieLinkIsJudgedAlike(int gen, int maxGen, int width, int maxWidth, Severity want) {
        NodeInventory base = Inventories.s1();
        Gpu g = base.gpu().gpus().getFirst();
        Gpu linked = new Gpu(g.index(), "0000:3b:00.0", g.source(), g.name(), g.uuid(), g.memory(), g.temperatureC(),
                g.slowdownTemperatureC(), g.powerWatts(), g.powerLimitWatts(), g.smClockMhz(), g.clockEvents(), g.ecc(),
                g.remappedRows(), Reading.of(new PcieLink(gen, maxGen, width, maxWidth)), g.nvlinks(),
                g.persistenceMode(), g.pcieReplays(), g.nvlinkErrors(), g.activity());
        Finding check = new CheckRunner(CheckRunner.nodeChecks().checks())
                .run(new CheckInput(Inventories.withGpus(base, List.of(linked)), Optional.empty(), NODE)).stream()
                .filter(f -> f.id().equals(CheckId.GPU_PCIE_LINK.id())).findFirst().orElseThrow();
        String paste = "==============NVSMI LOG==============\n\nDriver Version                            : 535.54.03\n"
                + "Attached GPUs                             : 1\nGPU 00000000:3B:00.0\n"
                + "    Product Name                          : NVIDIA A100-SXM4-80GB\n"
                + "    PCI\n        GPU Link Info\n            PCIe Generation\n"
                + "                Max                       : " + maxGen + "\n"
                + "                Current                   : " + gen + "\n"
                + "            Link Width\n"
                + "                Max                       : " + maxWidth + "x\n"
                + "                Current                   : " + width + "x\n";
        Finding pasted = Diagnoser.standard().diagnose(paste).diagnoses().stream().map(Diagnosis::finding)
                .filter(f -> f.id().equals(CheckId.GPU_PCIE_LINK.id())).findFirst()
                .orElse(Finding.pass(CheckId.GPU_PCIE_LINK.id(), check.subject(), "passed", ""));
        assertThat(List.of(check, pasted)).extracting(Finding::severity).containsOnly(want);
        assertThat(pasted.remediation()).isEqualTo(check.remediation());
    }

    private static String sansLspciAndDrain(String fix) {
        return fix.lines().filter(l -> !l.startsWith("lspci ") && !l.startsWith("scontrol update nodename="))
                .collect(java.util.stream.Collectors.joining("\n"));
    }

    private static List<Finding> runChecks(List<XidEvent> events) {
        NodeInventory inv = Inventories.withXids(Inventories.s1(), Reading.of(events));
        return new CheckRunner(CheckRunner.nodeChecks().checks()).run(new CheckInput(inv, Optional.empty(), NODE));
    }

    private static Finding xid(List<Finding> findings) {
        return findings.stream().filter(f -> f.id().equals(CheckId.GPU_XID.id())).findFirst()
                .orElseThrow(() -> new AssertionError("no gpu.xid among " + findings));
    }
}
