package dev.railyard.cluster;

import dev.railyard.model.ClusterSpec;
import dev.railyard.platform.CommandRunner;
import dev.railyard.spec.SpecReader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** SlurmLauncher on a real slurmctld and two slurmd: steps through srun, the bundle through sbcast. */
@Tag("tools")
class SlurmLauncherTest {

    static TestSlurm slurm;
    static ClusterSpec spec;
    static Bundle bundle;

    @BeforeAll
    static void up() {
        slurm = TestSlurm.up();
        spec = new SpecReader().read("cluster.yaml", """
                cluster: railyardtest
                nodes:
                  - {name: n1, address: localhost}
                  - {name: n2, address: localhost}
                """);
        bundle = TestBundle.build();
    }

    @AfterAll
    static void down() {
        if (slurm != null) slurm.close();
    }

    @Test
    void ownAllocationRunsRailyardFromTheSbcastBundleAndIsGivenBack() throws Exception {
        deleteTree(TestSlurm.DIR.resolve("cache")); // another test may have prepared the nodes already
        for (Path leftover : TestSlurm.bundleCopies(bundle.hash())) Files.delete(leftover);
        String job;
        try (SlurmLauncher l = new SlurmLauncher(spec, new RemoteRailyard.FromBundle(bundle), slurm.environment(),
                CommandRunner.system())) {
            StepResult prepared = l.prepare(spec.node("n1").orElseThrow(), Duration.ofSeconds(120));
            assertThat(prepared.status()).as(prepared.detail() + prepared.stderr()).isEqualTo(StepStatus.EXITED);
            Path onNode = TestSlurm.DIR.resolve("cache/railyard").resolve(bundle.hash());
            assertThat(prepared.detail()).isEqualTo("copied bundle " + bundle.hash() + " to " + onNode + " (sbcast)");
            job = l.allocation();
            assertThat(slurm.slurm("squeue", "-h", "-j", job, "-o", "%T %N").stdout().strip())
                    .isEqualTo("RUNNING n[1-2]");

            StepResult r = l.run(spec.node("n2").orElseThrow(), List.of("--version"), Duration.ofSeconds(60));
            assertThat(r.status()).as(r.detail() + r.stderr()).isEqualTo(StepStatus.EXITED);
            assertThat(r.exitCode()).isZero();
            assertThat(r.stdout()).contains("railyard");
            assertThat(TestSlurm.bundleCopies(bundle.hash())).as("sbcast's copy in the nodes' /tmp").hasSize(1);
        }
        assertThat(TestSlurm.bundleCopies(bundle.hash())).as("close removes the sbcast copy").isEmpty();
        assertThat(slurm.slurm("squeue", "-h", "-j", job, "-o", "%T").stdout().strip())
                .as("the allocation is given back").isIn("", "COMPLETING", "CANCELLED");
    }

    @Test
    void closeRemovesTheSbcastCopyFromAnExistingAllocationAndLeavesTheAllocation() throws Exception {
        deleteTree(TestSlurm.DIR.resolve("cache"));
        for (Path leftover : TestSlurm.bundleCopies(bundle.hash())) Files.delete(leftover);
        CommandRunner.Result alloc = slurm.slurm("salloc", "--no-shell", "-N2", "--immediate=30");
        String job = alloc.stderr().replaceAll("(?s).*Granted job allocation (\\d+).*", "$1");
        assertThat(job).as(alloc.stderr()).matches("\\d+");
        Map<String, String> inside = new HashMap<>(slurm.environment());
        inside.put("SLURM_JOB_ID", job);
        try {
            try (SlurmLauncher l = new SlurmLauncher(spec, new RemoteRailyard.FromBundle(bundle), inside,
                    CommandRunner.system())) {
                StepResult prepared = l.prepare(spec.node("n2").orElseThrow(), Duration.ofSeconds(120));
                assertThat(prepared.detail()).as(prepared.stderr()).endsWith("(sbcast)");
                assertThat(TestSlurm.bundleCopies(bundle.hash())).hasSize(1);
            }
            assertThat(TestSlurm.bundleCopies(bundle.hash())).as("close removes the sbcast copy").isEmpty();
            assertThat(slurm.slurm("squeue", "-h", "-j", job, "-o", "%T").stdout().strip())
                    .as("the allocation is not the launcher's to give back").isEqualTo("RUNNING");
        } finally {
            slurm.slurm("scancel", job);
        }
    }

    private static void deleteTree(Path dir) throws java.io.IOException {
        if (!Files.exists(dir)) return;
        try (var all = Files.walk(dir)) {
            for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(p);
        }
    }

    @Test
    void stepRunsOnTheNamedNodeInsideAnExistingAllocation() throws Exception {
        Path railyard = Files.createTempFile("railyard-slurm-env", ".sh");
        // AtPath: a program every node sees (the shared-directory case); it says where Slurm ran it
        Files.writeString(railyard, "#!/bin/sh\necho \"$SLURMD_NODENAME job $SLURM_JOB_ID args $*\"\n");
        railyard.toFile().setExecutable(true);
        CommandRunner.Result alloc = slurm.slurm("salloc", "--no-shell", "-N2", "--immediate=30");
        String job = alloc.stderr().replaceAll("(?s).*Granted job allocation (\\d+).*", "$1");
        assertThat(job).as(alloc.stderr()).matches("\\d+");
        Map<String, String> inside = new HashMap<>(slurm.environment());
        inside.put("SLURM_JOB_ID", job);
        try (SlurmLauncher l = new SlurmLauncher(spec, new RemoteRailyard.AtPath(railyard.toString()), inside,
                CommandRunner.system())) {
            StepResult r = l.run(spec.node("n2").orElseThrow(), List.of("a b", "it's"), Duration.ofSeconds(60));
            assertThat(r.status()).as(r.detail() + r.stderr()).isEqualTo(StepStatus.EXITED);
            assertThat(r.stdout()).isEqualTo("n2 job " + job + " args a b it's\n");
        } finally {
            slurm.slurm("scancel", job);
            Files.delete(railyard);
        }
        assertThat(slurm.slurm("squeue", "-h", "-j", job, "-o", "%T").stdout().strip())
                .as("an allocation the launcher did not make is not its to cancel... but this test made it")
                .isIn("", "COMPLETING", "CANCELLED");
    }

    @Test
    void hangingStepIsKilledAtItsTimeoutWithNoOrphan() throws Exception {
        String port = Integer.toString(43000 + (int) (ProcessHandle.current().pid() % 1000));
        try (SlurmLauncher l = new SlurmLauncher(spec, new RemoteRailyard.FromBundle(bundle), slurm.environment(),
                CommandRunner.system())) {
            StepResult r = l.run(spec.node("n1").orElseThrow(), List.of("bench", "tcp", "server", "--port", port),
                    Duration.ofSeconds(5));
            assertThat(r.status()).as(r.detail() + r.stderr()).isEqualTo(StepStatus.TIMED_OUT);
            assertThat(r.detail()).isEqualTo("killed with its remote process group on n1 after the step timeout of 5 s");
        }
        assertThat(ProcessHandle.allProcesses().map(p -> p.info().commandLine().orElse("")))
                .noneMatch(c -> c.contains("--port " + port));
    }

    @Test
    void unknownNodeIsUnreachableInSrunsWords() throws Exception {
        ClusterSpec.Node ghost = new ClusterSpec.Node("n9", "localhost", Optional.empty(), Optional.empty());
        CommandRunner.Result alloc = slurm.slurm("salloc", "--no-shell", "-N1", "--immediate=30");
        String job = alloc.stderr().replaceAll("(?s).*Granted job allocation (\\d+).*", "$1");
        Map<String, String> inside = new HashMap<>(slurm.environment());
        inside.put("SLURM_JOB_ID", job);
        try (SlurmLauncher l = new SlurmLauncher(spec, new RemoteRailyard.AtPath("/bin/true"), inside,
                CommandRunner.system())) {
            StepResult r = l.run(ghost, List.of(), Duration.ofSeconds(30));
            assertThat(r.status()).isEqualTo(StepStatus.UNREACHABLE);
            assertThat(r.detail()).startsWith("srun: Unable to create step for job " + job);
        } finally {
            slurm.slurm("scancel", job);
        }
    }
}
