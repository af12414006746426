package dev.railyard.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * railyard validate end to end on this machine, without a spec: the local launcher starts real child JVMs for the
 * inventory, the checks and the loopback TCP pair, and the report lands in --out.
 */
class ValidateCommandTest {

    private static CliRun run(String... args) {
        return CliRun.of(args);
    }

    @Test
    void noSpecValidatesThisMachineAsOneNodeAndWritesTheReport(@TempDir Path dir) throws IOException {
        Path out = dir.resolve("report");
        CliRun r = run("validate", "--no-history", "--out", out.toString(), "--format", "json");
        assertThat(r.code()).as(r.err()).isIn(ExitCodes.OK, ExitCodes.FAIL_FINDING);
        JsonNode report = new ObjectMapper().readTree(r.out());
        assertThat(report.path("schemaVersion").asInt()).isEqualTo(2);
        assertThat(report.path("complete").asBoolean()).isTrue();
        assertThat(report.path("launcher").asText()).isEqualTo("local");
        assertThat(report.path("nodes")).hasSize(1);
        JsonNode node = report.path("nodes").get(0);
        assertThat(node.path("status").asText()).as(node.toString()).isEqualTo("COMPLETED");
        assertThat(node.path("findings").size()).as("the node's own checks came back").isPositive();
        assertThat(node.path("facts").path("netdevs").size()).isPositive();

        List<JsonNode> bench = new ArrayList<>();
        report.path("benchFindings").forEach(bench::add);
        assertThat(bench).anySatisfy(f -> {
            assertThat(f.path("id").asText()).isEqualTo("bench.tcp.loopback");
            assertThat(f.path("severity").asText()).as(f.toString()).isEqualTo("PASS");
            assertThat(f.path("observed").asText()).contains("Gb/s");
        });
        // the same number, as a number: what the summary lists and compare matches
        assertThat(report.path("measurements")).anySatisfy(m -> {
            assertThat(m.path("benchmark").asText()).isEqualTo("loopback TCP");
            assertThat(m.path("unit").asText()).isEqualTo("Gb/s");
            assertThat(m.path("value").asDouble()).isPositive();
        });
        JsonNode gpu = bench.stream().filter(f -> f.path("id").asText().equals("bench.gpu")).findFirst().orElseThrow();
        if (!hasNvidiaDriver()) {
            // no GPU here: the GPU steps say they were skipped and why, and never pass
            assertThat(gpu.path("severity").asText()).isIn("INFO", "UNKNOWN");
            assertThat(gpu.path("observed").asText()).contains("skipped");
            assertThat(bench).noneMatch(f -> f.path("id").asText().startsWith("bench.nccl") && f.path("severity").asText().equals("PASS"));
        }
        assertThat(Files.readString(out.resolve("report.json"))).contains("\"runId\"");
        assertThat(r.err()).contains("validate").contains("no --spec: this machine alone");
    }

    @Test
    void textSummaryEndsWithTheVerdictAndTheReportPath(@TempDir Path dir) {
        Path out = dir.resolve("r");
        CliRun r = run("validate", "--no-history", "--out", out.toString());
        assertThat(r.code()).as(r.err()).isIn(ExitCodes.OK, ExitCodes.FAIL_FINDING);
        assertThat(r.out()).startsWith("Validation of ").contains("Nodes\n").contains("VERDICT: ")
                .containsPattern("\n  loopback TCP +\\S+ 127\\.0\\.0\\.1 +[0-9.]+ Gb/s\n")
                .contains("Report: " + out.toAbsolutePath());
        assertThat(Files.isRegularFile(out.resolve("report.json"))).isTrue();
    }

    @Test
    void usageMistakesExitTwo(@TempDir Path dir) {
        assertThat(run("validate", "--no-history", "--max-parallel", "1").code()).isEqualTo(ExitCodes.USAGE);
        assertThat(run("validate", "--no-history", "--spec", dir.resolve("missing.yaml").toString()).code()).isEqualTo(ExitCodes.USAGE);
        assertThat(run("validate", "--no-history", "--step-timeout", "soon").code()).isEqualTo(ExitCodes.USAGE);
        assertThat(run("validate", "--quick", "--full").code()).isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void helpTeachesWithExamples() {
        CliRun r = run("validate", "--help");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("railyard validate --spec cluster.yaml").contains("--max-parallel").contains("Exit codes");
    }

    private static boolean hasNvidiaDriver() {
        return Files.exists(Path.of("/proc/driver/nvidia/version"));
    }
}
