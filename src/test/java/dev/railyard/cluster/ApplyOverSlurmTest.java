package dev.railyard.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.railyard.platform.CommandRunner;
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
 * railyard apply --launcher slurm --apply on a real slurmctld and two slurmd, in a child JVM (Slurm's clients find
 * the test cluster through SLURM_CONF): each node's apply runs as an srun step in an allocation apply asks for
 * itself, writes under that node's own root with a backup, and the allocation is given back.
 */
@Tag("tools")
class ApplyOverSlurmTest {

    @TempDir
    Path dir;

    @Test
    void everyNodeAppliesThroughSrun() throws Exception {
        Bundle bundle = TestBundle.build();
        try (TestSlurm slurm = TestSlurm.up()) {
            Path spec = TestSlurm.twoNodeSpec(dir, "127.0.0.1");
            for (String n : List.of("n1", "n2")) Files.createDirectories(dir.resolve("roots").resolve(n));
            List<String> argv = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                    "dev.railyard.cli.Main", "apply", "--spec", spec.toString(), "--launcher", "slurm",
                    "--bundle", bundle.tarball().toString(), "--root", dir.resolve("roots") + "/{node}",
                    "--apply", "--format", "json", "--step-timeout", "2m");
            Map<String, String> env = slurm.environment();
            CommandRunner.Result r = CommandRunner.system().run(argv, Duration.ofMinutes(5), dir, Map.of(
                    "SLURM_CONF", env.get("SLURM_CONF"), "XDG_CACHE_HOME", env.get("XDG_CACHE_HOME")));
            assertThat(r.exitCode()).as(r.stdout() + r.stderr()).isZero();
            JsonNode doc = new ObjectMapper().readTree(r.stdout());
            assertThat(doc.get("launcher").asText()).isEqualTo("slurm");
            assertThat(doc.get("nodes")).hasSize(2).allSatisfy(n ->
                    assertThat(n.get("status").asText()).as(n.toString()).isEqualTo("COMPLETED"));
            for (String n : List.of("n1", "n2")) {
                Path root = dir.resolve("roots").resolve(n);
                assertThat(Files.readString(root.resolve("etc/hosts"))).contains("# BEGIN railyard managed block")
                        .contains("\t" + n + "\n").doesNotContain("127.0.1.1\t" + n);
                assertThat(root.resolve("var/backups/railyard")).isDirectory();
                assertThat(Files.readString(TestSlurm.DIR.resolve("slurmd-" + n + ".log")))
                        .as("slurmd %s launched apply's step", n).contains("launch task StepId=");
            }
            assertThat(slurm.slurm("squeue", "-h", "-o", "%i %T").stdout().strip())
                    .as("apply gave its allocation back").isEmpty();
        }
    }
}
