package dev.railyard.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.railyard.cli.Main;
import dev.railyard.platform.CommandRunner;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * railyard validate --launcher slurm end to end on a real slurmctld and two slurmd, in a child JVM (Slurm's clients
 * find the test cluster through SLURM_CONF in their environment): every node's steps go through srun in an
 * allocation validate asks for itself, and the allocation is given back. Both slurmd share this machine's address,
 * which validate rightly calls a FAIL (cluster.addresses): the one FAIL the run may have.
 */
@Tag("tools")
class ValidateOverSlurmTest {

    @TempDir
    Path dir;

    @Test
    void nodesAreValidatedThroughSrun() throws Exception {
        Assumptions.assumeTrue(Main.commandLine().getSubcommands().containsKey("validate"),
                "railyard validate is not in this build yet");
        Bundle bundle = TestBundle.build();
        String hash = Bundle.fromFile(bundle.tarball()).hash(); // what validate --bundle names it by
        try (TestSlurm slurm = TestSlurm.up()) {
            for (Path leftover : TestSlurm.bundleCopies(hash)) Files.delete(leftover);
            Path spec = TestSlurm.twoNodeSpec(dir, "localhost");
            Path out = dir.resolve("report");
            List<String> argv = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                    "dev.railyard.cli.Main", "validate", "--spec", spec.toString(), "--launcher", "slurm",
                    "--bundle", bundle.tarball().toString(), "--no-history", "--out", out.toString(),
                    "--step-timeout", "2m");
            Map<String, String> env = slurm.environment();
            CommandRunner.Result r = CommandRunner.system().run(argv, Duration.ofMinutes(5), dir, Map.of(
                    "SLURM_CONF", env.get("SLURM_CONF"), "XDG_CACHE_HOME", env.get("XDG_CACHE_HOME")));
            JsonNode report = new ObjectMapper().readTree(out.resolve("report.json").toFile());
            assertThat(report.get("launcher").asText()).isEqualTo("slurm");
            assertThat(report.get("nodes")).hasSize(2).allSatisfy(n ->
                    assertThat(n.get("status").asText()).as(n.toString()).isEqualTo("COMPLETED"));
            // both slurmd run on this one machine, so both nodes report its address: a true FAIL, and the only one
            List<String> fails = new java.util.ArrayList<>();
            report.get("clusterFindings").forEach(f -> {
                if (f.get("severity").asText().equals("FAIL")) fails.add(f.get("id").asText());
            });
            report.get("nodes").forEach(n -> n.get("findings").forEach(f -> {
                if (f.get("severity").asText().equals("FAIL")) fails.add(f.get("id").asText());
            }));
            assertThat(fails).as(r.stdout()).containsExactly("cluster.addresses");
            assertThat(r.exitCode()).as(r.stdout() + r.stderr()).isEqualTo(1);
            for (String node : List.of("n1", "n2")) {
                assertThat(Files.readString(TestSlurm.DIR.resolve("slurmd-" + node + ".log")))
                        .as("slurmd %s launched validate's steps", node).contains("launch task StepId=");
            }
            assertThat(slurm.slurm("squeue", "-h", "-o", "%i %T").stdout().strip())
                    .as("validate gave its allocation back").isEmpty();
            assertThat(TestSlurm.bundleCopies(hash)).as("validate removed sbcast's copies from the nodes").isEmpty();
        }
    }

    /**
     * Ctrl-C twice, as an impatient user presses it: SIGINT to validate's whole process group, twice within a
     * second, while its steps run in Slurm. srun acts on that itself (the first prints its tasks' state, the second
     * cancels its step and exits 130), so its steps run in sessions of their own: validate alone stops them, no node
     * is judged on the user's signal, the report keeps what was measured, the run exits 1 and leaves nothing in Slurm.
     */
    @Test
    void ctrlCStopsTheStepsInSlurmAndKeepsWhatWasMeasured() throws Exception {
        ctrlC(true);
    }

    /**
     * The same right as the run starts, while salloc asks for the allocation and the nodes are prepared (sbcast,
     * srun): salloc gave up at the SIGINT ("salloc got no allocation", both nodes UNREACHABLE) and a preparing srun
     * died of it (a node FAILED with "exited 130") before they ran in sessions of their own.
     */
    @Test
    void ctrlCAsTheRunStartsJudgesNoNode() throws Exception {
        ctrlC(false);
    }

    private void ctrlC(boolean whileStepsRun) throws Exception {
        Assumptions.assumeTrue(Main.commandLine().getSubcommands().containsKey("validate"),
                "railyard validate is not in this build yet");
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/setsid")), "needs setsid (util-linux)");
        Bundle bundle = TestBundle.build();
        try (TestSlurm slurm = TestSlurm.up()) {
            Path spec = TestSlurm.twoNodeSpec(dir, "localhost");
            Path out = dir.resolve("report");
            // setsid: validate leads its own process group, as a shell makes a foreground job
            ProcessBuilder pb = new ProcessBuilder("/usr/bin/setsid",
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                    "dev.railyard.cli.Main", "validate", "--spec", spec.toString(), "--launcher", "slurm",
                    "--bundle", bundle.tarball().toString(), "--no-history", "--out", out.toString(),
                    "--step-timeout", "2m").redirectOutput(dir.resolve("stdout.txt").toFile());
            pb.environment().keySet().removeIf(k -> k.startsWith("SLURM_"));
            pb.environment().put("SLURM_CONF", slurm.environment().get("SLURM_CONF"));
            pb.environment().put("XDG_CACHE_HOME", slurm.environment().get("XDG_CACHE_HOME"));
            Process p = pb.start();
            StringBuilder seen = new StringBuilder();
            try (BufferedReader err = new BufferedReader(new InputStreamReader(p.getErrorStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = err.readLine()) != null && !line.contains("nodes: inventory and checks")) {
                    seen.append(line).append('\n');
                }
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (whileStepsRun && slurm.slurm("squeue", "-h", "-s", "-o", "%i %j").stdout().isBlank()) {
                    assertThat(System.nanoTime()).as("a step running in Slurm; validate said: " + seen).isLessThan(deadline);
                    assertThat(p.isAlive()).as("validate still running: " + seen).isTrue();
                    Thread.sleep(50); // polling squeue for the first step
                }
                // One press: validate stops its steps in Slurm itself (srun alone would want a second press within
                // a second, and a second signal ends validate at once, without its report).
                Process kill = new ProcessBuilder("kill", "-INT", "--", "-" + p.pid()).inheritIO().start();
                assertThat(kill.waitFor()).isZero();
                assertThat(p.waitFor(90, TimeUnit.SECONDS)).as("validate ends after Ctrl-C").isTrue();
                err.lines().forEach(l -> seen.append(l).append('\n'));
            }
            assertThat(seen.toString()).contains("validate interrupted");
            JsonNode report = new ObjectMapper().readTree(out.resolve("report.json").toFile());
            assertThat(report.get("complete").asBoolean()).isFalse();
            assertThat(report.get("nodes")).hasSize(2).allSatisfy(n -> assertThat(n.get("status").asText())
                    .as(n.toString()).isIn("COMPLETED", "NOT_RUN", "INTERRUPTED"));
            report.get("nodes").forEach(n -> n.get("findings").forEach(f -> assertThat(f.get("severity").asText())
                    .as(f.toString()).isNotEqualTo("FAIL")));
            assertThat(p.exitValue()).as(seen.toString()).isEqualTo(1);
            assertThat(slurm.slurm("squeue", "-h", "-s", "-o", "%i %j").stdout().strip())
                    .as("no step left in Slurm").isEmpty();
            assertThat(slurm.slurm("squeue", "-h", "-o", "%i %j %T").stdout().strip())
                    .as("validate gave its allocation back").isEmpty();
        }
    }
}
