package dev.railyard.platform;

import dev.railyard.cli.CliRun;
import dev.railyard.model.RailyardException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * One measurement at a time per node, across processes: a benchmark run by hand holds its node alone, the steps of
 * one validate run share it, and nodes that share a lock directory (namespace nodes of one machine) are separate.
 */
class NodeLockTest {

    /** A holder process; the test waits for its "held" line, never on a sleep. */
    record Holder(Process process) implements AutoCloseable {
        static Holder start(Path dir, String node, String run, String what) throws IOException {
            return start(dir.toString(), node, run, what);
        }

        static Holder start(String... args) throws IOException {
            String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            java.util.List<String> argv = new java.util.ArrayList<>(java.util.List.of(javaBin, "-cp",
                    System.getProperty("java.class.path"), NodeLockHolder.class.getName()));
            argv.addAll(java.util.List.of(args));
            Process p = new ProcessBuilder(argv).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            String said = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)).readLine();
            assertThat(said).isEqualTo("held");
            return new Holder(p);
        }

        @Override
        public void close() throws IOException {
            process.getOutputStream().close();
            try {
                assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Test
    void aBenchmarkByHandHoldsItsNodeAloneAndOtherNodesInTheSameDirectoryAreFree(@TempDir Path dir) throws Exception {
        try (Holder h = Holder.start(dir, "node01", "-", "bench tcp client")) {
            for (Optional<String> run : java.util.List.of(Optional.<String>empty(), Optional.of("20261127-093406-8545"))) {
                assertThatThrownBy(() -> NodeLock.acquire("bench gpu", run, dir, "node01"))
                        .isInstanceOfSatisfying(RailyardException.MissingPrerequisite.class, e -> {
                            assertThat(e.exitCode()).isEqualTo(3);
                            assertThat(e.getMessage()).startsWith("another railyard benchmark is running on node01 "
                                    + "(bench tcp client, pid " + h.process().pid() + ", since ")
                                    .endsWith("; bench gpu would measure the node while it is busy");
                            assertThat(e.hint()).contains(dir.resolve("railyard-bench-node01.lock").toString());
                        });
            }
            // a namespace node of the same machine: its own file in the shared directory
            NodeLock.acquire("bench gpu", Optional.empty(), dir, "node02").close();
        }
        NodeLock.acquire("bench gpu", Optional.empty(), dir, "node01").close();
    }

    @Test
    void theStepsOfOneValidateRunShareTheNodeAndABenchmarkByHandIsRefused(@TempDir Path dir) throws Exception {
        try (Holder h = Holder.start(dir, "node01", "20261127-093406-8545", "bench tcp client")) {
            NodeLock.acquire("bench storage", Optional.of("20261127-093406-8545"), dir, "node01").close();
            assertThatThrownBy(() -> NodeLock.acquire("bench storage", Optional.empty(), dir, "node01"))
                    .hasMessageStartingWith("another railyard benchmark is running on node01 (steps of validate run "
                            + "20261127-093406-8545, since ");
        }
    }

    /** Two validate runs (two coordinators, or two specs naming one node): the second run's steps are refused. */
    @Test
    void theStepsOfASecondValidateRunAreRefusedWhileTheFirstRunsOnTheNode(@TempDir Path dir) throws Exception {
        String first = "20261127-093406-8545";
        // a second run whose byte lies below the first run's, and one above it: both sides are checked
        String below = runId(s -> s < NodeLock.slot(first));
        String above = runId(s -> s > NodeLock.slot(first));
        try (Holder h = Holder.start(dir, "node01", first, "bench tcp client")) {
            for (String second : java.util.List.of(below, above)) {
                assertThatThrownBy(() -> NodeLock.acquire("bench storage", Optional.of(second), dir, "node01"))
                        .isInstanceOfSatisfying(RailyardException.MissingPrerequisite.class, e -> {
                            assertThat(e.exitCode()).isEqualTo(3);
                            assertThat(e.getMessage()).startsWith("another railyard benchmark is running on node01 "
                                    + "(steps of validate run " + first + ", since ")
                                    .endsWith("; bench storage would measure the node while it is busy");
                        });
            }
            // the first run's own steps still share it, and another node is free for the second run
            NodeLock.acquire("bench gpu", Optional.of(first), dir, "node01").close();
            NodeLock.acquire("bench gpu", Optional.of(below), dir, "node02").close();
        }
        NodeLock.acquire("bench storage", Optional.of(above), dir, "node01").close();
    }

    /** Steps of one run that start together (a pair's server and client) never refuse each other. */
    @Test
    void stepsOfOneRunStartingTogetherNeverRefuseEachOther(@TempDir Path dir) throws Exception {
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        java.util.List<Process> steps = new java.util.ArrayList<>();
        for (int i = 0; i < 3; i++) {
            steps.add(new ProcessBuilder(javaBin, "-cp", System.getProperty("java.class.path"), NodeLockHolder.class.getName(),
                    "--churn", dir.toString(), "node01", "20261127-093406-8545", "3000").redirectErrorStream(true).start());
        }
        for (Process p : steps) {
            String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
            assertThat(said).as("a step of the run refused by its own run").isEqualTo("ok\n");
        }
    }

    /** A run id like validate's whose slot satisfies {@code wanted}. */
    private static String runId(java.util.function.LongPredicate wanted) {
        for (int i = 0; ; i++) {
            String id = String.format("20261127-1000%02d-%04x", i % 60, i);
            if (wanted.test(NodeLock.slot(id))) return id;
        }
    }

    @Test
    void theDirectoryAndTheNodeNameCanBeSetAndNamesBecomeOneFileWord() {
        assertThat(NodeLock.lockDir(Map.of("RAILYARD_LOCK_DIR", "/srv/locks")::get)).isEqualTo(Path.of("/srv/locks"));
        assertThat(NodeLock.nodeName(Map.of("RAILYARD_NODE", "gpu-07")::get)).isEqualTo("gpu-07");
        assertThat(NodeLock.nodeName(Map.<String, String>of()::get)).isNotBlank();
        assertThat(NodeLock.safe("a/../b c")).isEqualTo("a_.._b_c");
        assertThat(NodeLock.safe("..")).isEqualTo("_..");
    }

    /** A typo is answered before the lock: while another benchmark runs, each bench command's usage error is 2. */
    @Test
    void aTypoWhileTheNodeIsBusyIsAUsageErrorNotABusyNode() throws Exception {
        Path dir = NodeLock.lockDir(System::getenv);
        String node = NodeLock.nodeName(System::getenv);
        java.util.List<String[]> typos = java.util.List.of(
                new String[] {"bench", "tcp", "client", "127.0.0.1", "--duration", "10x"},
                new String[] {"bench", "tcp", "client", "127.0.0.1", "--connect-timeout", "soon"},
                new String[] {"bench", "storage", "--runtime", "0"},
                new String[] {"bench", "storage", "--bs", "1G", "--size", "64M"},
                new String[] {"bench", "gpu", "--iters", "0"},
                new String[] {"bench", "rdma", "client", "10.0.0.2", "--duration", "0"},
                new String[] {"bench", "nccl", "broadcast", "-g", "1", "--root-rank", "3"});
        try (Holder h = Holder.start(dir, node, "-", "bench storage")) {
            for (String[] typo : typos) {
                CliRun r = CliRun.of(typo);
                assertThat(r.code()).as(String.join(" ", typo) + ": " + r.err()).isEqualTo(2);
                assertThat(r.err()).doesNotContain("another railyard benchmark");
            }
        }
    }

    /** The command line: `bench tcp client` while another benchmark holds this node stops before connecting. */
    @Test
    void aBenchmarkCommandWhileTheNodeIsBusyExits3WithWhoHoldsIt() throws Exception {
        Path dir = NodeLock.lockDir(System::getenv);
        String node = NodeLock.nodeName(System::getenv);
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        String[] client = {"bench", "tcp", "client", "127.0.0.1", "--port", "" + port, "--duration", "1s"};
        try (Holder h = Holder.start(dir, node, "-", "bench storage")) {
            CliRun busy = CliRun.of(client);
            assertThat(busy.code()).as(busy.err()).isEqualTo(3);
            assertThat(busy.err()).contains("another railyard benchmark is running on " + node + " (bench storage, pid "
                    + h.process().pid());
        }
        CliRun free = CliRun.of(client);
        assertThat(free.err()).doesNotContain("another railyard benchmark").contains("127.0.0.1");
    }
}
