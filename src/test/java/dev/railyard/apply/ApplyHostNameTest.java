package dev.railyard.apply;

import dev.railyard.cli.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** apply --node on a host whose name is another machine's: refused unless --force; a dry run warns. */
class ApplyHostNameTest {

    private static final String S4 = "examples/s4-h100-hdr.yaml";

    private static Path rootNamed(Path root, String hostname) throws IOException {
        Files.createDirectories(root.resolve("etc"));
        Files.writeString(root.resolve("etc/hostname"), hostname + "\n");
        return root;
    }

    @Test
    void aHostNamedOtherwiseIsRefusedAndNothingChanges(@TempDir Path root) throws IOException {
        rootNamed(root, "compute02");
        Map<String, String> before = TreeSnapshot.of(root);
        CliRun r = CliRun.of("apply", "--spec", S4, "--node", "compute01", "--root", root.toString(), "--apply");
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(2);
        assertThat(r.err()).contains("this host is named 'compute02', which is the spec's node compute02, not compute01")
                .contains("add --force if this host really is compute01");
        assertThat(TreeSnapshot.of(root)).isEqualTo(before);
    }

    @Test
    void aHostOutsideTheSpecIsRefusedToo(@TempDir Path root) throws IOException {
        rootNamed(root, "gpuserver7");
        CliRun r = CliRun.of("apply", "--spec", S4, "--node", "compute01", "--root", root.toString(), "--apply");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("this host is named 'gpuserver7', not compute01");
    }

    @Test
    void forceAppliesAnywayAndSaysSo(@TempDir Path root) throws IOException {
        rootNamed(root, "compute02");
        CliRun r = CliRun.of("apply", "--spec", S4, "--node", "compute01", "--root", root.toString(), "--apply", "--force");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).contains("(--force: applying anyway)");
        assertThat(Files.exists(root.resolve("etc/nccl.conf"))).isTrue();
    }

    @Test
    void theRightHostWithItsDomainPassesAndADryRunOnlyWarns(@TempDir Path root) throws IOException {
        rootNamed(root, "compute01.cluster.example");
        CliRun ok = CliRun.of("apply", "--spec", S4, "--node", "compute01", "--root", root.toString(), "--apply");
        assertThat(ok.code()).as(ok.err()).isZero();
        assertThat(ok.err()).doesNotContain("warning");

        Path other = rootNamed(root.resolve("other"), "compute03");
        CliRun dry = CliRun.of("apply", "--spec", S4, "--node", "compute01", "--root", other.toString());
        assertThat(dry.code()).isZero();
        assertThat(dry.err()).contains("warning: this host is named 'compute03'").contains("--apply would refuse without --force");
    }
}
