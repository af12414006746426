package dev.railyard.cli;

import dev.railyard.check.SpecLoader;
import dev.railyard.model.RailyardException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** railyard check end to end on a tree (collectors may still be stubs: the tree holds a hostname and a dmesg). */
class CheckCommandTest {

    private static CliRun run(CommandLine cl, String... args) {
        return CliRun.on(cl, args);
    }

    private static Path tree(Path dir, boolean withXid79) throws IOException {
        Files.createDirectories(dir.resolve("proc/sys/kernel"));
        Files.writeString(dir.resolve("proc/sys/kernel/hostname"), "gpuserver1\n");
        Files.createDirectories(dir.resolve("railyard"));
        Files.writeString(dir.resolve("railyard/dmesg.txt"), withXid79
                ? "[ 12.5] NVRM: Xid (PCI:0000:3b:00): 79, pid=0, name=x, GPU has fallen off the bus.\n" : "[ 0.0] Linux\n");
        return dir;
    }

    @Test
    void emptyTreeExitsZeroAndPrintsTheSummary(@TempDir Path dir) throws IOException {
        CliRun r = run(Main.commandLine(), "check", "--root", tree(dir, false).toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("Checks on gpuserver1").contains(" FAIL, ");
    }

    @Test
    void aFailFindingExitsOneAndOnlyFilters(@TempDir Path dir) throws IOException {
        Path root = tree(dir, true);
        CliRun r = run(Main.commandLine(), "check", "--root", root.toString(), "--format", "json", "--only", "gpu.xid");
        assertThat(r.code()).isEqualTo(ExitCodes.FAIL_FINDING);
        assertThat(r.out()).contains("\"id\" : \"gpu.xid\"").contains("GPU 0000:3b:00.0").doesNotContain("host.");
        CliRun junit = run(Main.commandLine(), "check", "--root", root.toString(), "--format", "junit");
        assertThat(junit.out()).contains("<failure type=\"FAIL\"");
    }

    @Test
    void specErrorsExitTwo(@TempDir Path dir) throws IOException {
        Path root = tree(dir, false);
        assertThat(run(Main.commandLine(), "check", "--root", root.toString(), "--spec", dir.resolve("nope.yaml").toString()).code())
                .isEqualTo(ExitCodes.USAGE);
        Path spec = Files.writeString(dir.resolve("cluster.yaml"), "cluster: x\n");
        CliRun incomplete = run(Main.commandLine(), "check", "--root", root.toString(), "--spec", spec.toString());
        assertThat(incomplete.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(incomplete.err()).contains("cluster.yaml");
        SpecLoader malformed = f -> {
            throw new RailyardException.Usage("cluster.yaml: line 1: unknown key", "see railyard init");
        };
        CommandLine cl = new CommandLine(new CheckCommand(malformed));
        cl.setExecutionExceptionHandler(new ExitCodes.ExceptionHandler());
        assertThat(run(cl, "--root", root.toString(), "--spec", spec.toString()).code()).isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void onlyThatMatchesNoCheckIsAUsageErrorListingThePrefixes(@TempDir Path dir) throws IOException {
        Path root = tree(dir, false);
        CliRun r = run(Main.commandLine(), "check", "--root", root.toString(), "--only", "gpu.xid,rdam.");
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--only rdam. matches no check").contains("rdma.ib.sm, rdma.lag")
                .contains("gpu, gpu.ecc.uncorrected");
        assertThat(run(Main.commandLine(), "check", "--root", root.toString(), "--only", "rdma.ib.sm,gpu.temperature,host.").code())
                .as("an ID a check emits under its prefix, and a prefix of several").isZero();
    }

    @Test
    void aRootThatIsNotACaptureIsAUsageError(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("notes.txt"), "not a capture\n");
        CliRun r = run(Main.commandLine(), "check", "--root", dir.toString());
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("is not a capture").contains("sys/, proc/, railyard/");
        assertThat(run(Main.commandLine(), "inventory", "--root", dir.toString()).code()).isEqualTo(ExitCodes.USAGE);
        Files.createDirectories(dir.resolve("gpuserver1/proc"));
        assertThat(run(Main.commandLine(), "check", "--root", dir.toString()).err())
                .as("tar -xzf n.tgz -C dir puts the capture one level down").contains("--root " + dir.resolve("gpuserver1"));
    }

    @Test
    void whatCouldNotBeJudgedIsInTheSummaryAndTheJson(@TempDir Path dir) throws IOException {
        Path root = tree(dir, false);
        CliRun text = run(Main.commandLine(), "check", "--root", root.toString());
        assertThat(text.out()).contains("NOT JUDGED (3)").contains("  gpu   no GPU found")
                .contains("  rdma  no RDMA device in /sys/class/infiniband")
                .containsPattern("\\n0 FAIL, .* PASS; not judged: gpu, rdma, spec\\n$");
        CliRun json = run(Main.commandLine(), "check", "--root", root.toString(), "--format", "json");
        var doc = dev.railyard.report.Json.mapper().readTree(json.out());
        assertThat(doc.get("node").asText()).isEqualTo("gpuserver1");
        assertThat(doc.at("/summary/FAIL").asInt()).isZero();
        assertThat(doc.get("notJudged")).extracting(n -> n.get("area").asText()).containsExactly("gpu", "rdma", "spec");
        assertThat(doc.get("findings").isArray()).isTrue();
    }

    @Test
    void unknownFormatIsAUsageError(@TempDir Path dir) throws IOException {
        assertThat(run(Main.commandLine(), "check", "--root", tree(dir, false).toString(), "--format", "yaml").code())
                .isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void aHostnameThatIsNotInTheSpecIsSaidOnStderr(@TempDir Path dir) throws IOException {
        Path root = tree(dir, false);
        Files.writeString(root.resolve("proc/sys/kernel/hostname"), "lab-box\n");
        CliRun r = run(Main.commandLine(), "check", "--root", root.toString(), "--spec", "examples/s1-homelab-v100-roce.yaml");
        assertThat(r.err()).contains("hostname 'lab-box' is not a node of examples/s1-homelab-v100-roce.yaml")
                .contains("--node NAME (one of: gpuserver1, gpuserver2)");
        CliRun named = run(Main.commandLine(), "check", "--root", root.toString(), "--spec",
                "examples/s1-homelab-v100-roce.yaml", "--node", "gpuserver1");
        assertThat(named.err()).doesNotContain("is not a node of");
    }
}
