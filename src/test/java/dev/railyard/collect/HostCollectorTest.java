package dev.railyard.collect;

import dev.railyard.model.HostInfo;
import dev.railyard.model.HostInfo.MemlockLimit;
import dev.railyard.model.HostInfo.NvmeDevice;
import dev.railyard.model.Reading;
import dev.railyard.platform.HostRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

class HostCollectorTest {

    @TempDir
    Path dir;

    private HostInfo collect() {
        return new HostCollector().collect(HostRoot.at(dir));
    }

    /** A real text file from test resources without its two SOURCE/HARDWARE lines. */
    private static String sample(String resource) throws IOException {
        try (InputStream in = HostCollectorTest.class.getResourceAsStream(resource)) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return text.lines().skip(2).collect(Collectors.joining("\n", "", "\n"));
        }
    }

    private void put(String relative, String content) throws IOException {
        Path p = dir.resolve(relative);
        Files.createDirectories(p.getParent());
        Files.writeString(p, content);
    }

    /** node_exporter e2e output: node_cpu_scaling_governor powersave=1 on cpus 0-3; node_nvme_info for nvme0. */
    @Test
    void governorsAndNvmeFromNodeExporterFixture() {
        HostTtar.unpack("/trees/host/node_exporter-sys-host.ttar", dir);
        HostInfo host = collect();
        assertThat(host.cpuGovernors()).isEqualTo(Reading.of(Map.of("powersave", 4)));
        assertThat(host.nvme()).hasSize(1);
        NvmeDevice nvme = host.nvme().getFirst();
        assertThat(nvme.name()).isEqualTo("nvme0");
        assertThat(nvme.model()).isEqualTo(Reading.of("Samsung SSD 970 PRO 512GB"));
        assertThat(nvme.serial()).isEqualTo(Reading.of("S680HF8N190894I"));
        assertThat(nvme.firmware()).isEqualTo(Reading.of("1B2QEXP7"));
        // The fixture's class entry is a plain directory without transport or device link.
        assertThat(nvme.transport()).isInstanceOf(Reading.Absent.class);
        assertThat(nvme.pciAddress()).isInstanceOf(Reading.Absent.class);
        assertThat(nvme.sizeBytes()).isEqualTo(Reading.of(3_906_250_000L * 512));
    }

    /** On a real kernel sys/class/nvme/nvmeN links to the controller under its PCI function. */
    @Test
    void nvmeThroughTheClassSymlinkGivesTransportAndPciAddress() throws Exception {
        HostTtar.unpack("/trees/host/node_exporter-sys-host.ttar", dir);
        Path cls = dir.resolve("sys/class/nvme/nvme0");
        try (var files = Files.walk(cls)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
        Files.createSymbolicLink(cls, Path.of("../../devices/pci0000:00/0000:00:02.1/0000:01:00.0/nvme/nvme0"));
        NvmeDevice nvme = collect().nvme().getFirst();
        assertThat(nvme.model()).isEqualTo(Reading.of("CT2000P3SSD8"));
        assertThat(nvme.firmware()).isEqualTo(Reading.of("P9CR30A"));
        assertThat(nvme.transport()).isEqualTo(Reading.of("pcie"));
        assertThat(nvme.pciAddress()).isEqualTo(Reading.of("0000:01:00.0"));
        assertThat(nvme.sizeBytes()).isEqualTo(Reading.of(3_907_029_168L * 512));
    }

    @Test
    void memlockSoftLimitFromRealLimitsFiles() throws Exception {
        put("proc/self/limits", sample("/trees/host/procfs-proc-26232-limits.txt"));
        assertThat(collect().memlock()).isEqualTo(Reading.of(new MemlockLimit(false, 65536)));

        put("proc/self/limits", sample("/trees/host/procfs-proc-26231-limits.txt"));
        // 18446744073708503040 does not fit a signed long and is not RLIM_INFINITY.
        assertThat(collect().memlock()).isEqualTo(Reading.of(new MemlockLimit(false, Long.MAX_VALUE)));

        String unlimited = sample("/trees/host/procfs-proc-26232-limits.txt")
                .replace("Max locked memory         65536                65536",
                        "Max locked memory         unlimited            unlimited");
        put("proc/self/limits", unlimited);
        assertThat(collect().memlock()).isEqualTo(Reading.of(new MemlockLimit(true, -1)));
    }

    @Test
    void osFallsBackToUsrLibOsRelease() throws Exception {
        put("usr/lib/os-release", sample("/trees/host/node_exporter-usr-lib-os-release.txt"));
        assertThat(collect().os()).isEqualTo(Reading.of("Ubuntu 20.04.2 LTS"));
        put("etc/os-release", "NAME=Rocky\nPRETTY_NAME='Rocky Linux 9.4 (Blue Onyx)'\n");
        assertThat(collect().os()).isEqualTo(Reading.of("Rocky Linux 9.4 (Blue Onyx)"));
    }

    @Test
    void kernelSocketBuffersAndWatchedModules() throws Exception {
        put("proc/sys/kernel/osrelease", "5.15.0-105-generic\n");
        put("proc/sys/net/core/rmem_max", "212992\n");
        put("proc/sys/net/core/wmem_max", "134217728\n");
        // proc/modules format: name size refcount users state address
        put("proc/modules", """
                nvidia_peermem 16384 0 - Live 0xffffffffc1500000
                mlx5_ib 483328 0 - Live 0xffffffffc1400000
                nvidia 56717312 447 nvidia_uvm,nvidia_peermem,nvidia_modeset, Live 0xffffffffc0000000
                ib_uverbs 163840 2 nvidia_peermem,mlx5_ib, Live 0x0000000000000000
                """);
        Files.createDirectories(dir.resolve("sys/module/ib_umad")); // built into the kernel
        HostInfo host = collect();
        assertThat(host.kernel()).isEqualTo(Reading.of("5.15.0-105-generic"));
        assertThat(host.rmemMax()).isEqualTo(Reading.of(212992L));
        assertThat(host.wmemMax()).isEqualTo(Reading.of(134217728L));
        Map<String, Boolean> modules = host.modules().orElse(Map.of());
        assertThat(modules).containsOnlyKeys(HostInfo.WATCHED_MODULES);
        assertThat(modules).containsEntry("nvidia_peermem", true).containsEntry("mlx5_ib", true)
                .containsEntry("nvidia", true).containsEntry("ib_umad", true)
                .containsEntry("nv_peer_mem", false).containsEntry("rdma_rxe", false);
    }

    @Test
    void emptyRootSaysWhyEachFieldIsMissing() {
        HostInfo host = collect();
        assertThat(host.cpuGovernors()).isEqualTo(Reading.absent("no cpufreq (VM or driver not loaded)"));
        assertThat(host.memlock()).isInstanceOf(Reading.Absent.class);
        assertThat(host.modules()).isInstanceOf(Reading.Absent.class);
        assertThat(host.os()).isInstanceOf(Reading.Absent.class);
        assertThat(host.nvme()).isEmpty();
    }

    @Test
    void garbledLimitsFailWithThePath() throws Exception {
        put("proc/self/limits", "Max locked memory         lots                 lots                 bytes\n");
        assertThat(collect().memlock()).isEqualTo(Reading.failed("proc/self/limits", "not a number: \"lots\""));
    }

    /** Seeded truncations and byte garbles of every real limits/os-release sample: a Reading, never an exception. */
    @Test
    void garbledRealSamplesNeverThrow() throws Exception {
        java.util.Random random = new java.util.Random(42);
        String[] samples = {sample("/trees/host/procfs-proc-26231-limits.txt"),
                sample("/trees/host/procfs-proc-26232-limits.txt"),
                sample("/trees/host/node_exporter-usr-lib-os-release.txt")};
        for (int round = 0; round < 300; round++) {
            char[] text = samples[round % samples.length].toCharArray();
            int cut = random.nextInt(text.length + 1);
            for (int g = random.nextInt(4); g > 0 && cut > 0; g--) text[random.nextInt(cut)] = (char) random.nextInt(128);
            String garbled = new String(text, 0, cut);
            put("proc/self/limits", garbled);
            put("etc/os-release", garbled);
            HostInfo host = collect();
            assertThat(host.memlock()).isNotNull();
            assertThat(host.os()).isNotNull();
        }
    }

    @Test
    void liveRootCollectsWithoutExceptions() {
        HostInfo host = new HostCollector().collect(HostRoot.live());
        assertThat(host.kernel()).isInstanceOf(Reading.Present.class);
        assertThat(host.memlock()).isInstanceOf(Reading.Present.class);
        assertThat(host.modules()).isNotNull();
        System.out.println("live host: " + host);
    }
}
