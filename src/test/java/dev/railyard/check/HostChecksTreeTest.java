package dev.railyard.check;

import dev.railyard.collect.PciTree;
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

/** host.* end to end on node_exporter's CPUs and PCI bus, procfs' limits and gpud's H100 RDMA tree. */
class HostChecksTreeTest {

    /** A real /proc/modules line layout; the modules are the ones a GPU + ConnectX node loads. */
    private static final String MODULES = """
            mlx5_ib 479232 0 - Live 0x0000000000000000
            ib_core 475136 2 mlx5_ib,ib_uverbs, Live 0x0000000000000000
            mlx5_core 2383872 1 mlx5_ib, Live 0x0000000000000000
            nvidia_uvm 4911104 0 - Live 0x0000000000000000 (POE)
            nvidia 54689792 1 nvidia_uvm, Live 0x0000000000000000 (POE)
            """;

    @TempDir
    Path dir;

    private static Finding of(List<Finding> findings, String id, String subject) {
        return Found.one(findings, id, subject);
    }

    @Test
    void memlockOf64KibFailsAndUnlimitedPasses() throws IOException {
        Path root = CheckTrees.h100(dir);
        CheckTrees.limits(root, "26232");
        Finding bad = of(check(root), HostMemlockCheck.ID, NODE);
        assertThat(bad.severity()).isEqualTo(Severity.FAIL);
        assertThat(bad.observed()).isEqualTo("64 KiB (65536 bytes)");
        assertThat(bad.remediation()).isEqualTo(HostMemlockCheck.FIX).contains("* hard memlock unlimited");
        write(root, "proc/self/limits", CheckTrees.resource("/trees/host/procfs-proc-26232-limits.txt")
                .replace("Max locked memory         65536                65536 ",
                        "Max locked memory         unlimited            unlimited"));
        assertThat(of(check(root), HostMemlockCheck.ID, NODE).severity()).isEqualTo(Severity.PASS);
    }

    @Test
    void memlockPast2To63IsAsGoodAsUnlimited() throws IOException {
        Path root = CheckTrees.h100(dir);
        CheckTrees.limits(root, "26231"); // 18446744073708503040 bytes: no ibv_reg_mr can reach it
        Finding f = of(check(root), HostMemlockCheck.ID, NODE);
        assertThat(f.severity()).isEqualTo(Severity.PASS);
        assertThat(f.remediation()).isEmpty();
    }

    @Test
    void memlockIsNotJudgedWithoutRdma() throws IOException {
        Path root = CheckTrees.host(dir);
        CheckTrees.limits(root, "26232");
        assertThat(CheckTrees.withId(check(root), HostMemlockCheck.ID)).isEmpty();
    }

    @Test
    void socketBuffersAtTheKernelDefaultWarn() throws IOException {
        Path root = CheckTrees.host(dir);
        write(root, "proc/sys/net/core/rmem_max", "212992\n");
        write(root, "proc/sys/net/core/wmem_max", "212992\n");
        Finding rmem = of(check(root), HostNetBuffersCheck.ID, NODE + " net.core.rmem_max");
        assertThat(rmem.severity()).isEqualTo(Severity.WARN);
        assertThat(rmem.observed()).isEqualTo("212992");
        assertThat(rmem.remediation()).isEqualTo("sysctl -w net.core.rmem_max=268435456\n"
                + "echo \"net.core.rmem_max = 268435456\" | tee -a /etc/sysctl.d/90-railyard-rdma.conf");
        RunnableFixes.assertRunnable(rmem);
        write(root, "proc/sys/net/core/rmem_max", "268435456\n");
        List<Finding> tuned = check(root);
        assertThat(of(tuned, HostNetBuffersCheck.ID, NODE + " net.core.rmem_max").severity()).isEqualTo(Severity.PASS);
        assertThat(of(tuned, HostNetBuffersCheck.ID, NODE + " net.core.wmem_max").severity()).isEqualTo(Severity.WARN);
    }

    @Test
    void powersaveGovernorWarnsAndPerformancePasses() throws IOException {
        Path root = CheckTrees.host(dir);
        Finding bad = of(check(root), CpuGovernorCheck.ID, NODE);
        assertThat(bad.severity()).as("node_exporter's 4 CPUs are on powersave").isEqualTo(Severity.WARN);
        assertThat(bad.observed()).isEqualTo("powersave on 4 CPUs");
        assertThat(bad.remediation()).isEqualTo(CpuGovernorCheck.FIX).startsWith("for g in /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor; do echo performance");
        for (int cpu = 0; cpu < 4; cpu++) {
            write(root, "sys/devices/system/cpu/cpu" + cpu + "/cpufreq/scaling_governor", "performance\n");
        }
        Finding ok = of(check(root), CpuGovernorCheck.ID, NODE);
        assertThat(ok.severity()).isEqualTo(Severity.PASS);
        assertThat(ok.observed()).isEqualTo("performance on 4 CPUs");
    }

    @Test
    void mellanoxNicWithoutRdmaDeviceFailsWithTheModprobe() throws IOException {
        Path root = CheckTrees.pci(dir);
        new PciTree(root).nic("pci0000:40/0000:40:01.3/0000:46:00.0", 0);
        List<Finding> f = check(root);
        Finding bad = of(f, KernelModuleCheck.RDMA, "0000:46:00.0 (mlx5_core)");
        assertThat(bad.severity()).isEqualTo(Severity.FAIL);
        assertThat(bad.remediation()).isEqualTo("modprobe mlx5_ib\necho mlx5_ib > /etc/modules-load.d/mlx5_ib.conf");
        assertThat(CheckTrees.withId(f, KernelModuleCheck.RDMA)).as("the I350 (igb) has no RDMA driver to load")
                .extracting(Finding::subject).containsExactly("0000:46:00.0 (mlx5_core)");
        // mlx5_ib loaded: gpud's mlx5_0 registered on that function
        copyDevice(root, "mlx5_0");
        CheckTrees.link(root, "sys/class/infiniband/mlx5_0/device", "../../../bus/pci/devices/0000:46:00.0");
        Finding ok = of(check(root), KernelModuleCheck.RDMA, "0000:46:00.0 (mlx5_core)");
        assertThat(ok.severity()).isEqualTo(Severity.PASS);
    }

    @Test
    void gpusAndRdmaWithoutPeermemWarn() throws IOException {
        Path root = CheckTrees.h100(CheckTrees.pci(dir));
        new PciTree(root).gpu("pci0000:00/0000:00:01.1/0000:02:00.0", 0);
        write(root, "proc/modules", MODULES);
        Finding bad = of(check(root), KernelModuleCheck.PEERMEM, NODE);
        assertThat(bad.severity()).isEqualTo(Severity.WARN);
        assertThat(bad.observed()).isEqualTo("1 GPUs and 9 RDMA ports, nvidia_peermem not loaded");
        assertThat(bad.remediation()).isEqualTo(KernelModuleCheck.PEERMEM_FIX).startsWith("modprobe nvidia-peermem");
        write(root, "proc/modules", MODULES + "nv_peer_mem 16384 0 - Live 0x0000000000000000 (OE)\n");
        assertThat(of(check(root), KernelModuleCheck.PEERMEM, NODE).severity()).isEqualTo(Severity.INFO);
        write(root, "proc/modules", MODULES + "nvidia_peermem 16384 0 - Live 0x0000000000000000 (POE)\n");
        Finding ok = of(check(root), KernelModuleCheck.PEERMEM, NODE);
        assertThat(ok.severity()).isEqualTo(Severity.PASS);
        assertThat(ok.observed()).isEqualTo("nvidia_peermem loaded");
    }

    private void copyDevice(Path root, String name) throws IOException {
        Path from = CheckTrees.h100(dir.resolve("gpud")).resolve("sys/class/infiniband/" + name);
        Path to = root.resolve("sys/class/infiniband/" + name);
        try (var all = Files.walk(from)) {
            for (Path p : all.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(t);
                else Files.copy(p, t);
            }
        }
    }
}
