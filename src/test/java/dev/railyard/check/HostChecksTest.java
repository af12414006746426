package dev.railyard.check;

import dev.railyard.model.Finding;
import dev.railyard.model.HostInfo;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Map;

import static dev.railyard.check.Inventories.*;
import static org.assertj.core.api.Assertions.assertThat;

class HostChecksTest {

    private static List<Finding> run(Check c, NodeInventory inv) {
        return c.run(CheckInput.withoutSpec(inv));
    }

    private static NodeInventory hostWith(Reading<HostInfo.MemlockLimit> memlock, long rmem, Map<String, Integer> gov,
                                          Map<String, Boolean> modules) {
        return withHost(s1(), host(memlock, rmem, 268_435_456L, gov, modules));
    }

    @Test
    void memlockUnlimitedPassesAndFiniteFailsWithTheLimitsConfLines() {
        assertThat(Found.one(run(new HostMemlockCheck(), s1()), "host.memlock", "gpuserver1").severity()).isEqualTo(Severity.PASS);
        Finding f = Found.one(run(new HostMemlockCheck(),
                hostWith(Reading.of(new HostInfo.MemlockLimit(false, 65536)), 268_435_456L, Map.of(), Map.of())),
                "host.memlock", "gpuserver1");
        assertThat(f.severity()).isEqualTo(Severity.FAIL);
        assertThat(f.observed()).isEqualTo("64 KiB (65536 bytes)");
        assertThat(f.remediation()).contains("* soft memlock unlimited").contains("/etc/security/limits.d/");
    }

    @Test
    void memlockIsUnknownWhenUnreadableAndNotJudgedWithoutRdma() {
        NodeInventory unreadable = hostWith(Reading.failed("proc/self/limits", "permission denied"), 268_435_456L, Map.of(), Map.of());
        Finding f = Found.one(run(new HostMemlockCheck(), unreadable), "host.memlock", "gpuserver1");
        assertThat(f.severity()).isEqualTo(Severity.UNKNOWN);
        assertThat(f.observed()).contains("proc/self/limits").contains("permission denied");
        assertThat(run(new HostMemlockCheck(), withRdma(unreadable, List.of()))).isEmpty();
    }

    @ParameterizedTest
    @CsvSource({"212992,WARN", "268435455,WARN", "268435456,PASS", "536870912,PASS"})
    void netBuffersAgainst268435456(long rmem, Severity expected) {
        Finding f = Found.one(run(new HostNetBuffersCheck(), hostWith(Reading.of(new HostInfo.MemlockLimit(true, -1)),
                rmem, Map.of(), Map.of())), "host.net.buffers", "gpuserver1 net.core.rmem_max");
        assertThat(f.severity()).isEqualTo(expected);
        if (expected == Severity.WARN) {
            assertThat(f.remediation()).startsWith("sysctl -w net.core.rmem_max=268435456")
                    .contains("net.core.rmem_max = 268435456\" | tee -a /etc/sysctl.d/90-railyard-rdma.conf");
        }
    }

    @Test
    void governorPowersaveWarnsWithCpupower() {
        Finding f = Found.one(run(new CpuGovernorCheck(), hostWith(Reading.of(new HostInfo.MemlockLimit(true, -1)),
                268_435_456L, Map.of("powersave", 38, "performance", 2), Map.of())), "host.cpu.governor", "gpuserver1");
        assertThat(f.severity()).isEqualTo(Severity.WARN);
        assertThat(f.observed()).isEqualTo("performance on 2 CPUs, powersave on 38 CPUs");
        assertThat(f.remediation()).startsWith("for g in /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor; do echo performance");
        assertThat(Found.one(run(new CpuGovernorCheck(), s1()), "host.cpu.governor", "gpuserver1").severity()).isEqualTo(Severity.PASS);
    }

    @Test
    void governorWithoutCpufreqIsInfoNotPass() {
        NodeInventory inv = withHost(s1(), new HostInfo(NONE, NONE, Reading.of(new HostInfo.MemlockLimit(true, -1)),
                Reading.of(1L), Reading.of(1L), Reading.absent("no sys/devices/system/cpu/cpu0/cpufreq"), Reading.of(Map.of()), List.of()));
        Finding f = Found.one(run(new CpuGovernorCheck(), inv), "host.cpu.governor", "gpuserver1");
        assertThat(f.severity()).isEqualTo(Severity.INFO);
        assertThat(f.observed()).contains("cpufreq");
    }

    @ParameterizedTest
    @CsvSource({"mlx4_core,modprobe mlx4_ib", "mlx5_core,modprobe mlx5_ib"})
    void rdmaCapableNicWithoutRdmaDeviceFailsWithModprobe(String coreDriver, String fix) {
        dev.railyard.model.PciDevice nic = new dev.railyard.model.PciDevice("0000:04:00.0", 0x15b3, 0x1007, 0x020000,
                Reading.of(coreDriver), Reading.of(0), Reading.absent("x"), List.of());
        NodeInventory base = withRdma(s1(), List.of());
        NodeInventory inv = new NodeInventory(base.hostname(), base.takenAt(), base.root(), base.host(), List.of(nic),
                base.gpu(), List.of(), base.interfaces(), base.topology(), base.xidEvents());
        Finding f = Found.one(run(new KernelModuleCheck(), inv), "host.module.rdma", "0000:04:00.0 (" + coreDriver + ")");
        assertThat(f.severity()).isEqualTo(Severity.FAIL);
        assertThat(f.remediation().lines().findFirst()).contains(fix);
        assertThat(Found.one(run(new KernelModuleCheck(), s1()), "host.module.rdma", "0000:04:00.0 (mlx4_core)").severity())
                .isEqualTo(Severity.PASS);
    }

    @Test
    void peermemMissingWarnsWithModprobeNvidiaPeermem() {
        NodeInventory inv = hostWith(Reading.of(new HostInfo.MemlockLimit(true, -1)), 268_435_456L, Map.of(),
                Map.of("nvidia", true, "nvidia_peermem", false, "nv_peer_mem", false));
        Finding f = Found.one(run(new KernelModuleCheck(), inv), "host.module.peermem", "gpuserver1");
        assertThat(f.severity()).isEqualTo(Severity.WARN);
        assertThat(f.remediation()).startsWith("modprobe nvidia-peermem");
        assertThat(f.observed()).isEqualTo("2 GPUs and 2 RDMA ports, nvidia_peermem not loaded");
        assertThat(Found.one(run(new KernelModuleCheck(), s1()), "host.module.peermem", "gpuserver1").severity())
                .isEqualTo(Severity.PASS);
        assertThat(run(new KernelModuleCheck(), withGpus(inv, List.of())).stream().map(Finding::id))
                .doesNotContain("host.module.peermem");
    }
}
