package dev.railyard.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.railyard.cli.Main;
import dev.railyard.platform.CommandRunner;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

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
            Path spec = dir.resolve("cluster.yaml");
            Files.writeString(spec, """
                    cluster: railyardtest
                    nodes:
                      - {name: n1, address: localhost}
                      - {name: n2, address: localhost}
                    """);
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
}
