package dev.railyard.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * validate in its own JVM (--launcher local: every step a child process), stopped with SIGTERM (what Ctrl-C's shutdown path also runs) while its steps are running:
 * the steps' processes die with it and the report of what was measured is still written, marked incomplete.
 */
class ValidateInterruptTest {

    @Test
    void aStoppedRunWritesItsPartialReportAndLeavesNoStepBehind(@TempDir Path dir) throws Exception {
        // SIGTERM (Process.destroy would also close our end of stderr): the JVM runs validate's shutdown hook
        stoppedRun(dir, List.of(), p -> p.toHandle().destroy());
    }

    /**
     * Ctrl-C on a terminal: SIGINT to the whole foreground process group, the steps' processes included. They leave
     * the ending to validate, so no step is judged on a death by the user's signal, and the run exits 1 as
     * docs/exit-codes.md says (not the 130 of a JVM ended by SIGINT).
     */
    @Test
    void ctrlCToTheProcessGroupIsAnInterruptedRunNotFailingSteps(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/setsid")), "needs setsid (util-linux)");
        JsonNode report = stoppedRun(dir, List.of("/usr/bin/setsid"), p -> {
            // setsid made the JVM the leader of its own process group, as a shell does for a foreground job
            Process kill = new ProcessBuilder("kill", "-INT", "--", "-" + p.pid()).inheritIO().start();
            assertThat(kill.waitFor()).isZero();
        });
        report.path("nodes").forEach(n -> assertThat(n.path("status").asText()).as(n.toString())
                .isIn("COMPLETED", "NOT_RUN", "INTERRUPTED"));
        for (String kind : List.of("clusterFindings", "pairFindings", "benchFindings")) {
            report.path(kind).forEach(f -> assertThat(f.path("severity").asText()).as(f.toString()).isNotEqualTo("FAIL"));
        }
    }

    interface Stopper {
        void stop(Process validate) throws Exception;
    }

    private static JsonNode stoppedRun(Path dir, List<String> prefix, Stopper stopper) throws Exception {
        Path out = dir.resolve("report");
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> argv = new ArrayList<>(prefix);
        argv.addAll(List.of(java, "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                Main.class.getName(), "validate", "--launcher", "local", "--no-history", "--out", out.toString()));
        Process p = new ProcessBuilder(argv).redirectOutput(dir.resolve("stdout.txt").toFile()).start();
        List<String> seen = new ArrayList<>();
        List<ProcessHandle> steps = new ArrayList<>();
        try (BufferedReader err = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = err.readLine()) != null) {
                seen.add(line);
                // the node's inventory and check steps are running now
                if (line.contains("nodes: inventory and checks")) break;
            }
            assertThat(seen).as("validate's progress lines").anySatisfy(l -> assertThat(l).contains("nodes: inventory and checks"));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (steps.isEmpty() && System.nanoTime() < deadline) {
                p.descendants().forEach(steps::add);
                Thread.onSpinWait();
            }
            assertThat(steps).as("child steps running").isNotEmpty();
            stopper.stop(p);
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            err.lines().forEach(seen::add);
        }
        for (ProcessHandle step : steps) {
            assertThat(step.onExit().get(10, TimeUnit.SECONDS).isAlive()).as("step %d", step.pid()).isFalse();
        }
        assertThat(String.join("\n", seen)).contains("validate interrupted");
        JsonNode report = new ObjectMapper().readTree(Files.readString(out.resolve("report.json")));
        assertThat(report.path("complete").asBoolean(true)).isFalse();
        assertThat(report.path("nodes")).hasSize(1);
        assertThat(p.exitValue()).as("exit code of an interrupted run").isEqualTo(1);
        return report;
    }
}
