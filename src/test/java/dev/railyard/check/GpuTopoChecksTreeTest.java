package dev.railyard.check;

import dev.railyard.collect.PciTree;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Finding;
import dev.railyard.model.Severity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static dev.railyard.check.CheckTrees.NODE;
import static dev.railyard.check.CheckTrees.check;
import static dev.railyard.check.CheckTrees.write;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * gpu.* and topo.* end to end. On a --root tree GpuCollector lists GPUs from PCI only (NVML is asked on the live node
 * alone), so gpu.ecc.uncorrected, gpu.temperature, gpu.throttle, gpu.nvlink and gpu.driver can only be UNKNOWN here;
 * their firing/passing cases stay in GpuChecksTest on built inventories.
 */
class GpuTopoChecksTreeTest {

    private static final ClusterSpec S1 = CheckTrees.example("s1-homelab-v100-roce.yaml");
    /** The homelab's GPU slots on one root port; its ConnectX-3 sits on the other socket's root complex. */
    private static final String GPU0 = "pci0000:00/0000:00:01.1/0000:02:00.0/0000:03:00.0/0000:04:00.0";
    private static final String GPU1 = "pci0000:00/0000:00:01.1/0000:02:00.0/0000:03:01.0/0000:05:00.0";

    @TempDir
    Path dir;

    private static Finding of(List<Finding> findings, String id, String subject) {
        return Found.one(findings, id, subject);
    }

    @Test
    void gpuCountAgainstTheSpec() throws IOException {
        Path root = CheckTrees.pci(dir);
        PciTree pci = new PciTree(root).gpu(GPU0, 0);
        Finding missing = of(check(root, S1), GpuSpecCheck.COUNT, NODE);
        assertThat(missing.severity()).isEqualTo(Severity.FAIL);
        assertThat(missing.observed()).isEqualTo("1 GPUs");
        assertThat(missing.expected()).isEqualTo("2 x Tesla V100-PCIE-16GB");
        assertThat(missing.remediation()).startsWith("lspci -nn -d 10de:\n")
                .contains("# a GPU that falls off the bus needs the node rebooted");
        pci.gpu(GPU1, 0);
        List<Finding> f = check(root, S1);
        assertThat(of(f, GpuSpecCheck.COUNT, NODE).severity()).isEqualTo(Severity.PASS);
        // the model name comes from NVML only
        assertThat(of(f, GpuSpecCheck.COUNT, "GPU0 (0000:04:00.0)").severity()).isEqualTo(Severity.UNKNOWN);
        assertThat(of(f, GpuSpecCheck.DRIVER, NODE).severity()).isEqualTo(Severity.UNKNOWN);
    }

    @Test
    void nvmlOnlyReadingsAreUnknownOnATreeNeverPass() throws IOException {
        Path root = CheckTrees.pci(dir);
        new PciTree(root).gpu(GPU0, 0);
        List<Finding> f = check(root);
        for (String id : List.of(GpuEccCheck.ID, GpuThermalCheck.TEMP, GpuNvlinkCheck.ID, GpuSpecCheck.DRIVER)) {
            assertThat(CheckTrees.withId(f, id)).as(id).isNotEmpty()
                    .allSatisfy(x -> assertThat(x.severity()).as(x.toString()).isEqualTo(Severity.UNKNOWN));
        }
        assertThat(f).filteredOn(x -> x.id().startsWith("gpu.")).noneMatch(x -> x.severity() == Severity.PASS
                && !x.id().equals(GpuPcieLinkCheck.ID) && !x.id().equals(GpuXidCheck.ID));
    }

    @Test
    void narrowGpuLinkWarnsAndIdleGenerationIsInfo() throws IOException {
        Path root = CheckTrees.pci(dir);
        new PciTree(root).gpu(GPU0, 0);
        Path dev = root.resolve("sys/devices/" + GPU0);
        Finding ok = of(check(root), GpuPcieLinkCheck.ID, "GPU0 (0000:04:00.0)");
        assertThat(ok.severity()).isEqualTo(Severity.PASS);
        assertThat(ok.observed()).isEqualTo("Gen5 x16");
        Files.writeString(dev.resolve("current_link_width"), "8\n");
        Finding narrow = of(check(root), GpuPcieLinkCheck.ID, "GPU0 (0000:04:00.0)");
        assertThat(narrow.severity()).isEqualTo(Severity.WARN);
        assertThat(narrow.observed()).isEqualTo("Gen5 x8");
        assertThat(narrow.remediation()).isEqualTo("# reseat the GPU or riser and check the slot's wiring\n"
                + "lspci -vv -s 0000:04:00.0 | grep -E 'LnkCap|LnkSta'");
        Files.writeString(dev.resolve("current_link_width"), "16\n");
        Files.writeString(dev.resolve("current_link_speed"), "2.5 GT/s PCIe\n");
        assertThat(of(check(root), GpuPcieLinkCheck.ID, "GPU0 (0000:04:00.0)").severity()).isEqualTo(Severity.INFO);
    }

    @Test
    void xid79InTheCapturedKernelLogFails() throws IOException {
        Path root = CheckTrees.pci(dir);
        new PciTree(root).gpu("pci0000:b2/0000:b2:00.0/0000:b3:00.0", 1);
        write(root, "railyard/dmesg.txt", CheckTrees.resource("/ib-tools/dmesg-gpud-boot-mlx5_core-decode-iso.txt"));
        Finding clean = of(check(root), GpuXidCheck.ID, NODE);
        assertThat(clean.severity()).isEqualTo(Severity.PASS);
        assertThat(clean.observed()).isEqualTo("no Xid errors in the kernel log");
        // NVSentinel #155's dmesg lines: the GPU fell off the bus (read as Xid 79), and the Xid 79 line itself
        write(root, "railyard/dmesg.txt", """
                [ 1843.308145] NVRM: The NVIDIA GPU 0000:b3:00.0
                               NVRM: (PCI ID: 10de:26b5) installed in this system has
                               NVRM: fallen off the bus and is not responding to commands.
                [ 1843.439662] NVRM: The NVIDIA probe routine failed for 1 device(s).
                [ 1843.500000] NVRM: Xid (PCI:0000:b3:00): 79, GPU has fallen off the bus.
                """);
        Finding xid = of(check(root), GpuXidCheck.ID, "GPU0 (0000:b3:00.0)");
        assertThat(xid.severity()).isEqualTo(Severity.FAIL);
        assertThat(xid.observed()).startsWith("Xid 79 (GPU has fallen off the bus) x2, last at 1843.500000");
        assertThat(xid.remediation()).startsWith("scontrol update nodename=")
                .contains("dcgmi diag -r 3", "check PCIe seating, power and cooling");
        RunnableFixes.assertRunnable(xid);
    }

    @Test
    void gpuAndNicOnDifferentSocketsWarn() throws IOException {
        Path root = CheckTrees.pci(dir);
        PciTree pci = new PciTree(root).gpu(GPU0, 0).nic("pci0000:80/0000:80:01.0/0000:81:00.0", 1);
        ClusterSpec spec = oneRail(root, "0000:81:00.0");
        Finding far = of(check(root, spec), GpuNicAffinityCheck.ID, "GPU0 (0000:04:00.0)");
        assertThat(far.severity()).isEqualTo(Severity.WARN);
        assertThat(far.observed()).isEqualTo("mlx5_0 SYS");
        assertThat(far.remediation()).startsWith("# move the HCA into a slot on the GPU's root complex or CPU socket");
        // the same HCA moved behind the GPU's PCIe switch
        pci.nic("pci0000:00/0000:00:01.1/0000:02:00.0/0000:03:02.0/0000:06:00.0", 0);
        Files.delete(root.resolve("sys/class/infiniband/mlx5_0/device"));
        CheckTrees.link(root, "sys/class/infiniband/mlx5_0/device", "../../../bus/pci/devices/0000:06:00.0");
        Finding near = of(check(root, spec), GpuNicAffinityCheck.ID, "GPU0 (0000:04:00.0)");
        assertThat(near.severity()).isEqualTo(Severity.PASS);
        assertThat(near.observed()).isEqualTo("mlx5_0 PIX");
    }

    @Test
    void twoGpusOnOneRailWarn() throws IOException {
        Path root = CheckTrees.pci(dir);
        new PciTree(root).gpu(GPU0, 0).gpu(GPU1, 0).nic("pci0000:80/0000:80:01.0/0000:81:00.0", 1);
        Finding shared = of(check(root, oneRail(root, "0000:81:00.0")), RailCountCheck.ID, NODE);
        assertThat(shared.severity()).isEqualTo(Severity.WARN);
        assertThat(shared.observed()).isEqualTo("2 GPUs, 1 compute rails bound in the spec");
        assertThat(shared.remediation()).startsWith("# GPUs share 1 NIC port(s): add HCAs");
        // the homelab's two rails, one per V100
        Finding rails = of(check(root, S1), RailCountCheck.ID, NODE);
        assertThat(rails.severity()).isEqualTo(Severity.PASS);
        assertThat(rails.observed()).isEqualTo("2 GPUs, 2 compute rails bound in the spec");
    }

    /** gpud's mlx5_0 registered on the NIC at {@code address}, and a spec with it as the node's one compute rail. */
    private ClusterSpec oneRail(Path root, String address) throws IOException {
        if (!Files.exists(root.resolve("sys/class/infiniband/mlx5_0"))) {
            Path gpud = CheckTrees.h100(dir.resolve("gpud")).resolve("sys/class/infiniband/mlx5_0");
            Files.createDirectories(root.resolve("sys/class/infiniband"));
            Files.move(gpud, root.resolve("sys/class/infiniband/mlx5_0"));
            CheckTrees.link(root, "sys/class/infiniband/mlx5_0/device", "../../../bus/pci/devices/" + address);
        }
        return CheckTrees.oneRailSpec();
    }
}
