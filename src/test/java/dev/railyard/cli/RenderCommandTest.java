package dev.railyard.cli;

import dev.railyard.report.InventoryTextTrees;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.assertj.core.api.Assertions.assertThat;

/** railyard render end to end: files and modes under --out, every node without --node, usage errors exit 2. */
class RenderCommandTest {

    private static CliRun run(String... args) {
        return CliRun.of(args);
    }

    @Test
    void oneNodeLandsUnderOutWithItsModes(@TempDir Path dir) throws IOException {
        CliRun r = run("render", "--spec", "examples/s1-homelab-v100-roce.yaml", "--node", "gpuserver2", "--out", dir.toString());
        assertThat(r.code()).as(r.err()).isZero();
        Path netplan = dir.resolve("etc/netplan/60-railyard-fabric.yaml");
        assertThat(Files.readString(netplan)).contains("- 10.0.0.2/24");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(netplan))).isEqualTo("rw-------");
        assertThat(r.out()).contains("0600  " + netplan).contains("0644  " + dir.resolve("etc/nccl.conf"));
    }

    @Test
    void withoutNodeEveryNodeGetsItsDirectory(@TempDir Path dir) {
        assertThat(run("render", "--spec", "examples/s4-h100-hdr.yaml", "--out", dir.toString()).code()).isZero();
        for (int i = 1; i <= 8; i++) assertThat(dir.resolve("compute0" + i + "/etc/slurm/gres.conf")).exists();
    }

    @Test
    void theGidIndexComesFromTheTreeUnderRoot(@TempDir Path dir) throws IOException {
        Path root = InventoryTextTrees.nccl1573Roce(dir.resolve("tree"));
        Path spec = dir.resolve("pods.yaml");
        Files.writeString(spec, """
                cluster: pods
                nodes: [{name: pod1, address: 10.0.0.5}]
                networks:
                  - name: rail0
                    role: compute
                    link_layer: ethernet
                    bind: {pod1: {netdev: net1, rdma: "mlx5_0:1", address: 10.152.0.12}}
                """);
        CliRun r = run("render", "--spec", spec.toString(), "--node", "pod1", "--root", root.toString(), "--out", dir.resolve("out").toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(Files.readString(dir.resolve("out/etc/nccl.conf"))).contains("\nNCCL_IB_GID_INDEX=7\n");
    }

    @Test
    void usageErrorsExitTwoWithOneLine(@TempDir Path dir) {
        CliRun unknown = run("render", "--spec", "examples/s1-homelab-v100-roce.yaml", "--node", "gpuserver9", "--out", dir.toString());
        assertThat(unknown.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(unknown.err()).contains("node gpuserver9 is not in the spec").contains("gpuserver1, gpuserver2");
        CliRun rootWithoutNode = run("render", "--spec", "examples/s1-homelab-v100-roce.yaml", "--root", dir.toString(), "--out", dir.toString());
        assertThat(rootWithoutNode.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(run("render", "--spec", dir.resolve("none.yaml").toString(), "--out", dir.toString()).code()).isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void aFileInTheWayIsAUsageErrorBeforeAnythingIsWritten(@TempDir Path dir) throws IOException {
        // --out naming a file, and a file where the second node's directory goes: exit 2, one line naming it, no
        // Java class name, and no node's files written (not the first node's either)
        Path file = Files.writeString(dir.resolve("rendered"), "mine\n");
        CliRun onFile = run("render", "--spec", "examples/s1-homelab-v100-roce.yaml", "--out", file.toString());
        assertThat(onFile.code()).as(onFile.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(onFile.err()).startsWith("railyard: cannot write under " + file + ": it is a file, not a directory")
                .contains("hint:").doesNotContain("Exception").doesNotContain("java.");
        assertThat(Files.readString(file)).isEqualTo("mine\n");

        Path out = Files.createDirectories(dir.resolve("out"));
        Files.writeString(out.resolve("gpuserver2"), "mine\n");
        CliRun second = run("render", "--spec", "examples/s1-homelab-v100-roce.yaml", "--out", out.toString());
        assertThat(second.code()).as(second.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(second.err()).contains(out.resolve("gpuserver2") + ": it is a file").doesNotContain("Exception");
        assertThat(out.resolve("gpuserver1")).doesNotExist();
    }

    @Test
    void anUnwritableOutIsAUsageErrorNamingThePath() {
        // /proc takes no new directories, for root either
        CliRun r = run("render", "--spec", "examples/s1-homelab-v100-roce.yaml", "--node", "gpuserver1", "--out", "/proc/railyard-render");
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).startsWith("railyard: cannot write under /proc/railyard-render").contains("hint:")
                .doesNotContain("Exception").doesNotContain("java.");
    }
}
