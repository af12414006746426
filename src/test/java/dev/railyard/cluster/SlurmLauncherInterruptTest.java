package dev.railyard.cluster;

import dev.railyard.model.ClusterSpec;
import dev.railyard.platform.CommandRunner;
import dev.railyard.spec.SpecReader;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Ctrl-C while salloc asks for the allocation: the runner kills salloc (as ProcessCommandRunner does on an
 * interrupt), the node is not judged (no "salloc got no allocation", no UNREACHABLE: the preparation is
 * interrupted), and the request salloc may have made is cancelled by the allocation's own name. Slurm's commands
 * run under setsid, in sessions of their own, so the terminal's SIGINT reaches validate alone.
 */
class SlurmLauncherInterruptTest {

    @Test
    void ctrlCDuringSallocInterruptsThePreparationAndCancelsTheRequest() throws Exception {
        for (String tool : List.of("salloc", "scancel")) {
            Assumptions.assumeTrue(onPath(tool), tool + " is not installed (slurm-client)");
        }
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/setsid")), "needs setsid (util-linux)");
        ClusterSpec spec = new SpecReader().read("cluster.yaml", """
                cluster: c
                nodes:
                  - {name: n1, address: localhost}
                """);
        List<List<String>> ran = new CopyOnWriteArrayList<>();
        CountDownLatch sallocStarted = new CountDownLatch(1);
        AtomicReference<Boolean> scancelInterrupted = new AtomicReference<>();
        CommandRunner runner = (argv, timeout, dir, env) -> {
            ran.add(argv);
            if (argv.stream().anyMatch(a -> a.endsWith("/salloc"))) {
                sallocStarted.countDown();
                try {
                    Thread.sleep(60_000); // a pending request
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt(); // what the real runner leaves after killing salloc
                    return new CommandRunner.Result(argv, -1, "", "", true, "");
                }
            }
            if (argv.stream().anyMatch(a -> a.endsWith("/scancel"))) {
                scancelInterrupted.set(Thread.currentThread().isInterrupted());
            }
            return new CommandRunner.Result(argv, 0, "", "", false, "");
        };
        AtomicReference<Object> outcome = new AtomicReference<>();
        try (SlurmLauncher launcher = new SlurmLauncher(spec, new RemoteRailyard.AtPath("/bin/true"), Map.of(),
                runner)) {
            Thread preparing = Thread.ofVirtual().start(() -> {
                try {
                    outcome.set(launcher.prepare(spec.node("n1").orElseThrow(), Duration.ofSeconds(30)));
                } catch (InterruptedException e) {
                    outcome.set(e);
                }
            });
            assertThat(sallocStarted.await(10, TimeUnit.SECONDS)).isTrue();
            preparing.interrupt(); // Ctrl-C: validate's shutdown hook interrupts the run
            assertThat(preparing.join(Duration.ofSeconds(10))).isTrue();
        }
        assertThat(outcome.get()).as("the node's preparation").isInstanceOf(InterruptedException.class);
        List<String> salloc = ran.getFirst();
        assertThat(salloc.getFirst()).as("salloc in a session of its own").isEqualTo("/usr/bin/setsid");
        String name = salloc.stream().filter(a -> a.startsWith("--job-name=")).findFirst().orElseThrow();
        assertThat(name).matches("--job-name=railyard-validate-[0-9a-f]+");
        assertThat(ran).anySatisfy(argv -> assertThat(argv).last().isEqualTo(name.replace("--job-name=", "--name=")));
        assertThat(scancelInterrupted.get()).as("scancel ran with the interrupt cleared, not killed at once").isFalse();
    }

    private static boolean onPath(String tool) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, tool))) return true;
        }
        return false;
    }
}
