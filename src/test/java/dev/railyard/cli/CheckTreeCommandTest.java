package dev.railyard.cli;

import dev.railyard.check.CheckTrees;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** `railyard check --root DIR [--spec FILE]` through Main on the real trees: findings, fixes and exit codes. */
class CheckTreeCommandTest {

    private static final String S1 = Path.of("examples", "s1-homelab-v100-roce.yaml").toString();

    @TempDir
    Path dir;

    private record Run(int code, String out, String err) {}

    private static Run railyard(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var cl = Main.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        return new Run(cl.execute(args), out.toString(), err.toString());
    }

    @Test
    void realH100TreeHasNoFailAndAnInitPortExitsOne() throws IOException {
        Path root = CheckTrees.h100(dir);
        Run clean = railyard("check", "--root", root.toString(), "--node", "gpuserver1");
        assertThat(clean.code()).as(clean.out() + clean.err()).isEqualTo(ExitCodes.OK);
        assertThat(clean.out()).startsWith("Checks on gpuserver1").contains("rdma.counters").contains("mlx5_1:1")
                .doesNotContain("FAIL  ");
        CheckTrees.write(root, "sys/class/infiniband/mlx5_0/ports/1/state", "2: INIT\n");
        Run init = railyard("check", "--root", root.toString(), "--node", "gpuserver1", "--only", "rdma.port.state");
        assertThat(init.code()).isEqualTo(ExitCodes.FAIL_FINDING);
        assertThat(init.out()).contains("mlx5_0:1").contains("2: INIT (no subnet manager")
                .contains("systemctl enable --now opensm").doesNotContain("rdma.counters");
    }

    @Test
    void seed000TreeAgainstTheS1Spec() throws IOException {
        Path root = CheckTrees.seed000(dir);
        Run rate = railyard("check", "--root", root.toString(), "--spec", S1, "--node", "gpuserver1",
                "--only", "rdma.port.rate,rdma.roce.gid", "--format", "json");
        assertThat(rate.code()).as(rate.out() + rate.err()).isEqualTo(ExitCodes.OK);
        assertThat(rate.out()).contains("ib_write_bw --ib-dev=mlx4_0 --ib-port=2 --gid-index=2")
                .contains("40 Gb/sec (spec)");
        CheckTrees.write(root, "sys/class/infiniband/mlx4_0/ports/2/rate", "10 Gb/sec (4X)\n");
        Run slow = railyard("check", "--root", root.toString(), "--spec", S1, "--node", "gpuserver1",
                "--only", "rdma.port.rate");
        assertThat(slow.code()).isEqualTo(ExitCodes.FAIL_FINDING);
        assertThat(slow.out()).contains("10 Gb/sec (4X)").contains("cat /sys/class/infiniband/mlx4_0/ports/2/rate");
        Run all = railyard("check", "--root", root.toString(), "--spec", S1, "--node", "gpuserver1",
                "--format", "junit");
        assertThat(all.code()).isEqualTo(ExitCodes.FAIL_FINDING);
        assertThat(all.out()).contains("<failure type=\"FAIL\"").contains("ip link set dev ens6d1 mtu 9000");
    }

    @Test
    void malformedSpecExitsTwo() throws IOException {
        Path root = CheckTrees.seed000(dir);
        Path spec = Files.writeString(dir.resolve("s1-typo.yaml"),
                Files.readString(Path.of(S1)).replaceFirst("rate_gbps: 40", "rate_gpbs: 40"));
        Run r = railyard("check", "--root", root.toString(), "--spec", spec.toString(), "--node", "gpuserver1");
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("s1-typo.yaml").contains("rate_gpbs");
        assertThat(r.out()).isEmpty();
        Run notInSpec = railyard("check", "--root", root.toString(), "--spec", S1, "--node", "gpuserver9");
        assertThat(notInSpec.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(notInSpec.err()).contains("gpuserver9").contains("gpuserver1");
    }
}
