package dev.railyard.check;

import dev.railyard.check.rules.RdmaCountersRule;
import dev.railyard.collect.PciTree;
import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Finding;
import dev.railyard.model.Gpu;
import dev.railyard.model.NodeInventory;
import dev.railyard.model.Reading;
import dev.railyard.model.Severity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static dev.railyard.check.CheckTrees.NODE;
import static dev.railyard.check.CheckTrees.check;
import static dev.railyard.check.CheckTrees.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * One test per reader defect the mutation fuzzer (ReaderMutationFuzzTest) found, each reproducing its one mutation on a real tree and
 * asserting the check that depended on it is no longer a PASS.
 */
class ReaderIntegrityRegressionTest {

    /** Generous: what is tested is a read that never returns. */
    private static final Duration HANG = Duration.ofSeconds(120);
    private static final ClusterSpec S1 = CheckTrees.example("s1-homelab-v100-roce.yaml");
    private static final String GPU0 = "pci0000:00/0000:00:01.1/0000:02:00.0/0000:03:00.0/0000:04:00.0";
    private static final String GPU1 = "pci0000:00/0000:00:01.1/0000:02:00.0/0000:03:01.0/0000:05:00.0";
    private static final String PORT = "sys/class/infiniband/mlx5_0/ports/1";

    @TempDir
    Path dir;

    private static Finding of(List<Finding> findings, String id, String subject) {
        return Found.one(findings, id, subject);
    }

    private static void mkfifo(Path p) throws Exception {
        Files.deleteIfExists(p);
        Files.createDirectories(p.getParent());
        Process proc = new ProcessBuilder(List.of("mkfifo", p.toString())).redirectErrorStream(true).start();
        assertThat(proc.waitFor()).isZero();
    }

    @Test
    void aFifoInTheTreeIsAFailedReadingNotAHang() throws Exception {
        Path root = CheckTrees.h100(dir);
        mkfifo(root.resolve(PORT + "/link_layer"));
        mkfifo(root.resolve("sys/class/infiniband/mlx5_1/ports/1/state"));
        mkfifo(root.resolve("proc/sys/kernel/hostname"));
        mkfifo(root.resolve("railyard/nvidia-smi-q.xml"));
        List<Finding> f = assertTimeoutPreemptively(HANG, () -> check(root));
        Finding state = of(f, RdmaPortCheck.STATE, "mlx5_1:1");
        assertThat(state.severity()).isEqualTo(Severity.UNKNOWN);
        assertThat(state.observed()).contains("not a regular file");
    }

    @Test
    void anUnreadableErrorCounterIsNeverDroppedIntoAPass() throws Exception {
        Path root = CheckTrees.h100(dir);
        for (String name : RdmaCountersRule.ERRORS) write(root, PORT + "/counters/" + name, "0\n");
        write(root, PORT + "/counters/symbol_error", "17\n");
        assertThat(of(check(root), RdmaCountersCheck.ID, "mlx5_0:1").severity()).isEqualTo(Severity.WARN);
        for (String garbage : List.of("\u0001\u00ff\u0013zz", "N/A", "   ", "-1")) {
            write(root, PORT + "/counters/symbol_error", garbage);
            Finding f = of(check(root), RdmaCountersCheck.ID, "mlx5_0:1");
            assertThat(f.severity()).as(garbage).isEqualTo(Severity.UNKNOWN);
            assertThat(f.observed()).as(garbage).contains("could not read 1: symbol_error");
        }
        Files.delete(root.resolve(PORT + "/counters/symbol_error"));
        Finding deleted = of(check(root), RdmaCountersCheck.ID, "mlx5_0:1");
        assertThat(deleted.severity()).isEqualTo(Severity.UNKNOWN);
        assertThat(deleted.observed()).contains("symbol_error (no counter symbol_error)");
    }

    @Test
    void aKernelLogThatIsNotAKernelLogLeavesXidUnknown() throws Exception {
        Path root = CheckTrees.pci(dir);
        new PciTree(root).gpu(GPU0, 0);
        write(root, "railyard/dmesg.txt", CheckTrees.resource("/kernel-log/xid-dmesg-gpud-xid48-63-94-iso.txt"));
        assertThat(CheckTrees.withId(check(root), GpuXidCheck.ID)).extracting(Finding::severity).contains(Severity.FAIL);
        for (String notALog : List.of("N/A\n", "", "\n\n", "q8#!x\u00e9\u00fe random ] [ text\nmore of it\n")) {
            write(root, "railyard/dmesg.txt", notALog);
            Finding xid = of(check(root), GpuXidCheck.ID, NODE);
            assertThat(xid.severity()).as(notALog).isEqualTo(Severity.UNKNOWN);
            assertThat(xid.observed()).as(notALog).contains("Xid errors cannot be ruled out");
        }
        Files.write(root.resolve("railyard/dmesg.txt"), new byte[]{(byte) 0xfe, (byte) 0x80, 0x41, 0x0a});
        assertThat(of(check(root), GpuXidCheck.ID, NODE).severity()).isEqualTo(Severity.UNKNOWN);
    }

    @Test
    void integersAreNeverNarrowed() throws Exception {
        Path root = CheckTrees.seed000(dir);
        CheckTrees.limits(root, "26231");
        write(root, CheckTrees.ENS6D1 + "/mtu", "9000\n");
        assertThat(of(check(root, S1), FabricNetdevCheck.MTU, "ens6d1").severity()).isEqualTo(Severity.PASS);
        write(root, CheckTrees.ENS6D1 + "/mtu", "4294976296\n"); // 2^32 + 9000
        Finding mtu = of(check(root, S1), FabricNetdevCheck.MTU, "ens6d1");
        assertThat(mtu.severity()).isEqualTo(Severity.UNKNOWN);
        assertThat(mtu.observed()).contains("out of range: 4294976296");
        write(root, "proc/sys/net/core/rmem_max", "4294967296\n"); // above the kernel's int
        Finding rmem = of(check(root, S1), HostNetBuffersCheck.ID, NODE + " net.core.rmem_max");
        assertThat(rmem.severity()).isEqualTo(Severity.UNKNOWN);

        Path pci = CheckTrees.pci(Files.createDirectories(dir.resolve("pci")));
        new PciTree(pci).gpu(GPU0, 0);
        write(pci, "sys/devices/" + GPU0 + "/current_link_width", "4294967304\n"); // 2^32 + 8
        assertThat(of(check(pci), GpuPcieLinkCheck.ID, "GPU0 (0000:04:00.0)").severity()).isEqualTo(Severity.UNKNOWN);
    }

    @Test
    void aMaximumLinkWidthOfMinusOneOrZeroIsUnknown() throws Exception {
        Path root = CheckTrees.pci(dir);
        new PciTree(root).gpu(GPU0, 0);
        for (String max : List.of("-1\n", "0\n")) {
            write(root, "sys/devices/" + GPU0 + "/max_link_width", max);
            Finding f = of(check(root), GpuPcieLinkCheck.ID, "GPU0 (0000:04:00.0)");
            assertThat(f.severity()).as(max).isEqualTo(Severity.UNKNOWN);
            assertThat(f.observed()).as(max).doesNotContain("x-1").contains("max_link_width");
        }
    }

    @Test
    void aGpuWithGarbageIdentityKeepsItsPlaceAndIsCounted() throws Exception {
        Path root = CheckTrees.pci(dir);
        new PciTree(root).gpu(GPU0, 0).gpu(GPU1, 0);
        write(root, "sys/devices/" + GPU0 + "/current_link_width", "8\n");
        List<Finding> before = check(root, S1);
        assertThat(of(before, GpuPcieLinkCheck.ID, "GPU0 (0000:04:00.0)").severity()).isEqualTo(Severity.WARN);
        assertThat(of(before, GpuPcieLinkCheck.ID, "GPU1 (0000:05:00.0)").severity()).isEqualTo(Severity.PASS);
        for (String file : List.of("vendor", "class")) {
            String good = Files.readString(root.resolve("sys/devices/" + GPU0 + "/" + file));
            write(root, "sys/devices/" + GPU0 + "/" + file, "\u00ff\u00fegarbage");
            NodeInventory inv = CheckTrees.collect(root);
            assertThat(inv.gpu().gpus()).extracting(Gpu::index, Gpu::pciAddress)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple(0, "0000:04:00.0"),
                            org.assertj.core.groups.Tuple.tuple(1, "0000:05:00.0"));
            assertThat(inv.gpu().gpus().getFirst().pcieLink()).isInstanceOf(Reading.Failed.class);
            List<Finding> after = check(root, S1);
            assertThat(of(after, GpuPcieLinkCheck.ID, "GPU0 (0000:04:00.0)").severity()).as(file).isEqualTo(Severity.UNKNOWN);
            assertThat(of(after, GpuPcieLinkCheck.ID, "GPU1 (0000:05:00.0)").severity()).as(file).isEqualTo(Severity.PASS);
            Finding count = of(after, GpuSpecCheck.COUNT, NODE);
            assertThat(count.severity()).as(file).isEqualTo(Severity.UNKNOWN);
            assertThat(count.observed()).contains("0000:04:00.0").contains(file);
            write(root, "sys/devices/" + GPU0 + "/" + file, good);
        }
    }

    @Test
    void readsNeverLeaveTheRoot() throws Exception {
        Path root = CheckTrees.seed000(dir);
        CheckTrees.limits(root, "26231");
        Files.createDirectories(root.resolve("proc/sys/net/core"));
        Files.createSymbolicLink(root.resolve("proc/sys/net/core/rmem_max"), Path.of("/proc/sys/net/core/rmem_max"));
        Files.createSymbolicLink(root.resolve("proc/sys/net/core/wmem_max"), Path.of("../../../../../wmem_max"));
        Finding rmem = of(check(root), HostNetBuffersCheck.ID, NODE + " net.core.rmem_max");
        assertThat(rmem.severity()).isEqualTo(Severity.UNKNOWN);
        assertThat(rmem.observed()).isEqualTo(
                "failed (proc/sys/net/core/rmem_max: symlink points outside the root: -> /proc/sys/net/core/rmem_max)");
        assertThat(of(check(root), HostNetBuffersCheck.ID, NODE + " net.core.wmem_max").observed())
                .contains("symlink points outside the root");
        // the whole class directory pointed at the analysing machine's: none of its interfaces appear
        Path other = CheckTrees.seed000(Files.createDirectories(dir.resolve("other")));
        Files.move(other.resolve("sys/class/net"), other.resolve("sys/class/net-moved-away"));
        Files.createSymbolicLink(other.resolve("sys/class/net"), Path.of("/sys/class/net"));
        NodeInventory inv = CheckTrees.collect(other);
        assertThat(inv.interfaces()).isEmpty();
    }

    @Test
    void prefixesOfAValidValueAreNotThatValue() throws Exception {
        Path root = CheckTrees.connectx3(dir);
        String port = "sys/class/infiniband/mlx4_0/ports/1";
        assertThat(of(check(root), RdmaPortCheck.STATE, "mlx4_0:1").severity()).isEqualTo(Severity.PASS);
        for (String state : List.of("4: ACTIVE<junk>", "4: ACTIVEX", "4: ACTIVE\n4: ACTIVE", "4: DOWN")) {
            write(root, port + "/state", state);
            assertThat(of(check(root), RdmaPortCheck.STATE, "mlx4_0:1").severity()).as(state).isEqualTo(Severity.UNKNOWN);
        }
        write(root, port + "/state", "4: ACTIVE\n");
        Map<String, Severity> baseline = Map.of(RdmaRateCheck.ID, of(check(root), RdmaRateCheck.ID, "mlx4_0:1").severity());
        assertThat(baseline.get(RdmaRateCheck.ID)).isEqualTo(Severity.INFO);
        for (String rate : List.of("40 Gb/sec (4X QDR)<junk>", "40 Gb/sec (4X QDR)\n40 Gb/sec (4X QDR)",
                "9999999999 Gb/sec (4X QDR)", "40 Gb/sec (5X QDR)")) {
            write(root, port + "/rate", rate);
            Finding f = of(check(root), RdmaRateCheck.ID, "mlx4_0:1");
            assertThat(f.severity()).as(rate).isEqualTo(Severity.UNKNOWN);
            assertThat(f.observed()).as(rate).startsWith("failed (" + port + "/rate: ");
        }
    }

    @Test
    void theSpecRateIsNotMetByAGarbageRate() throws IOException {
        Path root = CheckTrees.seed000(dir);
        String port = "sys/class/infiniband/mlx4_0/ports/2";
        assertThat(of(check(root, S1), RdmaRateCheck.ID, "mlx4_0:2").severity()).isEqualTo(Severity.PASS);
        write(root, port + "/rate", "9999999999 Gb/sec\n");
        assertThat(of(check(root, S1), RdmaRateCheck.ID, "mlx4_0:2").severity()).isEqualTo(Severity.UNKNOWN);
    }
}
