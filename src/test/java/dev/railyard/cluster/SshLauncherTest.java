package dev.railyard.cluster;

import dev.railyard.model.ClusterSpec;
import dev.railyard.model.SshOptions;
import dev.railyard.platform.CommandRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * SshLauncher against real sshd: three namespace hosts from scripts/testcluster.sh, each with its own host key,
 * known_hosts and cache directory; Railyard reaches them as a bundle built once for this class.
 */
@Tag("tools")
class SshLauncherTest {

    static TestCluster cluster;
    static Bundle bundle;

    @BeforeAll
    static void up() {
        cluster = TestCluster.up("ssht", 4);
        bundle = TestBundle.build();
    }

    @AfterAll
    static void down() {
        if (cluster != null) cluster.close();
    }

    private static SshLauncher launcher() {
        return new SshLauncher(cluster.spec(), new RemoteRailyard.FromBundle(bundle));
    }

    @Test
    void argvReachesTheRemoteProgramWordForWord() throws Exception {
        Path marker = Files.createTempFile("railyard-ssh-injection", ".absent");
        Files.delete(marker);
        List<String> words = List.of("a b", "it's", "\"dq\"", "$(touch " + marker + ")", "`touch " + marker + "`",
                "*", "semi;colon && touch " + marker, "back\\slash", "new\nline", "", "-n", "ünï");
        List<String> argv = new java.util.ArrayList<>(List.of("printf", "[%s]\\n"));
        argv.addAll(words);
        try (SshLauncher l = launcher()) {
            StepResult r = l.execute(cluster.node("h1"), List.of(), argv, Duration.ofSeconds(20));
            assertThat(r.status()).as(r.detail() + r.stderr()).isEqualTo(StepStatus.EXITED);
            StringBuilder expected = new StringBuilder();
            words.forEach(w -> expected.append('[').append(w).append("]\n"));
            assertThat(r.stdout()).isEqualTo(expected.toString());
        }
        assertThat(marker).doesNotExist();
    }

    @Test
    void prepareCopiesTheBundleOnceAndRunsRailyardFromTheNodesCache() throws Exception {
        // versions another Railyard left on h2: the unpack and the probe remove the one unused for 30 days
        Path cache = cluster.dir().resolve("h2/cache/railyard");
        Path unused = oldVersion(cache.resolve("fedcba9876543210fedc"), 30);
        Path recent = oldVersion(cache.resolve("aaaaaaaaaaaaaaaaaaaa"), 13);
        try (SshLauncher l = launcher()) {
            StepResult first = l.prepare(cluster.node("h2"), Duration.ofSeconds(120));
            assertThat(first.status()).as(first.detail() + first.stderr()).isEqualTo(StepStatus.EXITED);
            Path onNode = cluster.dir().resolve("h2/cache/railyard").resolve(bundle.hash());
            assertThat(first.detail()).isEqualTo("copied bundle " + bundle.hash() + " to " + onNode);
            assertThat(onNode.resolve("bin/railyard")).isExecutable();
            assertThat(cluster.dir().resolve("h1/cache/railyard").resolve(bundle.hash())
                    .resolve("bin/railyard")).as("only h2 was prepared").doesNotExist();
            assertThat(unused).as("pruned by the unpack").doesNotExist();
            assertThat(recent).exists();

            oldVersion(unused, 30);
            StepResult again = new SshLauncher(cluster.spec(), new RemoteRailyard.FromBundle(bundle))
                    .prepare(cluster.node("h2"), Duration.ofSeconds(60));
            assertThat(again.detail()).isEqualTo("bundle " + bundle.hash() + " already at " + onNode);
            assertThat(unused).as("pruned by the probe").doesNotExist();
            assertThat(recent).exists();

            StepResult version = l.run(cluster.node("h2"), List.of("--version"), Duration.ofSeconds(60));
            assertThat(version.status()).as(version.stderr()).isEqualTo(StepStatus.EXITED);
            assertThat(version.exitCode()).isZero();
            assertThat(version.stdout()).contains("railyard");

            // The class cache trained at unpack time is there, and bin/railyard's flags fit it: with AOTMode=on
            // the JVM refuses to start on a cache it cannot use (other flags, other jar paths).
            assertThat(onNode.resolve("railyard.aot")).isNotEmptyFile();
            try (var left = Files.list(onNode)) {
                assertThat(left.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith("railyard.aot."));
            }
            ProcessBuilder strict = new ProcessBuilder(onNode.resolve("bin/railyard").toString(), "--version")
                    .redirectErrorStream(true);
            strict.environment().put("JDK_JAVA_OPTIONS", "-XX:AOTMode=on");
            Process p = strict.start();
            String out = new String(p.getInputStream().readAllBytes());
            assertThat(p.waitFor()).as(out).isZero();
            assertThat(out).contains("railyard");
        }
    }

    private static Path oldVersion(Path dir, int days) throws java.io.IOException {
        Files.createDirectories(dir.resolve("bin"));
        Files.setLastModifiedTime(dir, java.nio.file.attribute.FileTime.from(
                java.time.Instant.now().minus(Duration.ofDays(days))));
        return dir;
    }

    @Test
    void aHangingStepIsKilledAtItsTimeoutWithNothingLeftOnTheHost() throws Exception {
        String port = Integer.toString(41000 + (int) (ProcessHandle.current().pid() % 1000));
        try (SshLauncher l = launcher()) {
            assertThat(l.prepare(cluster.node("h1"), Duration.ofSeconds(120)).status()).isEqualTo(StepStatus.EXITED);
            // a benchmark server waits for a client that never comes: it would run forever
            StepResult r = l.run(cluster.node("h1"), List.of("bench", "tcp", "server", "--port", port),
                    Duration.ofSeconds(4));
            assertThat(r.status()).isEqualTo(StepStatus.TIMED_OUT);
            assertThat(r.detail()).isEqualTo("killed with its remote process group on "
                    + cluster.node("h1").address() + " after the step timeout of 4 s");
            assertThat(r.stderr()).as("it did start").contains("listening on");
        }
        assertThat(processesIn("h1")).noneMatch(cmd -> cmd.contains("--port " + port));
    }

    @Test
    void startedServerIsStoppedByClose() throws Exception {
        String port = Integer.toString(42000 + (int) (ProcessHandle.current().pid() % 1000));
        try (SshLauncher l = launcher()) {
            assertThat(l.prepare(cluster.node("h1"), Duration.ofSeconds(120)).status()).isEqualTo(StepStatus.EXITED);
            RemoteProcess server = l.start(cluster.node("h1"), List.of("bench", "tcp", "server", "--port", port),
                    Duration.ofSeconds(60));
            StepResult client = awaitClient(l, port);
            assertThat(client.status()).as(client.stderr()).isEqualTo(StepStatus.EXITED);
            assertThat(server.isAlive()).isTrue();
            l.close();
            assertThat(server.isAlive()).isFalse();
            assertThat(server.await(Duration.ofSeconds(1)).status()).isEqualTo(StepStatus.INTERRUPTED);
        }
        assertThat(processesIn("h1")).noneMatch(cmd -> cmd.contains("--port " + port));
    }

    /** The client on h2 retries until h1's server listens (its start is not instant: a JVM). */
    private static StepResult awaitClient(SshLauncher l, String port) throws InterruptedException {
        String h1 = cluster.spec().network("data").orElseThrow().bind().get("h1").address().orElseThrow();
        StepResult r = null;
        for (int i = 0; i < 30; i++) {
            r = l.run(cluster.node("h2"), List.of("bench", "tcp", "client", h1, "--port", port, "--duration", "1s"),
                    Duration.ofSeconds(60));
            if (r.status() == StepStatus.EXITED && r.exitCode() == 0) return r;
        }
        return r;
    }

    @Test
    void stoppedSshdIsUnreachableWithSshsReason() throws Exception {
        cluster.verb("stop-sshd", "h3");
        try (SshLauncher l = launcher()) {
            StepResult r = l.run(cluster.node("h3"), List.of("--version"), Duration.ofSeconds(20));
            assertThat(r.status()).isEqualTo(StepStatus.UNREACHABLE);
            assertThat(r.detail()).isEqualTo("ssh: connect to host " + cluster.node("h3").address()
                    + " port 22: Connection refused");
        } finally {
            cluster.verb("start-sshd", "h3");
        }
    }

    @Test
    void unknownHostKeyIsRefusedWithTheFix() throws Exception {
        Path empty = Files.createTempFile("railyard-known-hosts", "");
        ClusterSpec.Node h1 = cluster.node("h1");
        ClusterSpec.Node strict = new ClusterSpec.Node(h1.name(), h1.address(), h1.bmc(), h1.gpus(), h1.osFamily(),
                h1.disableNetdevs(), new SshOptions(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                        Optional.of(empty.toString())));
        try (SshLauncher l = launcher()) {
            StepResult r = l.execute(strict, List.of(), List.of("true"), Duration.ofSeconds(20));
            assertThat(r.status()).isEqualTo(StepStatus.UNREACHABLE);
            assertThat(r.detail()).isEqualTo("the host key of " + h1.address() + " is not known (ssh: Host key "
                    + "verification failed); check the node's key and add it with: ssh-keyscan " + h1.address()
                    + " >> " + empty);
        } finally {
            Files.delete(empty);
        }
        assertThat(Files.size(cluster.dir().resolve("known_hosts"))).isPositive();
    }

    @Test
    void hostKilledMidStepIsUnreachable() throws Exception {
        String port = Integer.toString(44000 + (int) (ProcessHandle.current().pid() % 1000));
        try (SshLauncher l = launcher()) {
            assertThat(l.prepare(cluster.node("h4"), Duration.ofSeconds(120)).status()).isEqualTo(StepStatus.EXITED);
            RemoteProcess server = l.start(cluster.node("h4"), List.of("bench", "tcp", "server", "--port", port),
                    Duration.ofSeconds(120));
            awaitProcess("h4", "--port " + port, true);
            cluster.verb("kill-host", "h4");
            StepResult r = server.await(Duration.ofSeconds(60));
            assertThat(r.status()).as(r.detail()).isEqualTo(StepStatus.UNREACHABLE);
            assertThat(r.detail()).matches("ssh: (Connection to " + cluster.node("h4").address().replace(".", "\\.")
                    + " closed by remote host\\.|Timeout, server " + cluster.node("h4").address().replace(".", "\\.")
                    + " not responding\\.|client_loop: send disconnect: Broken pipe|the master connection to "
                    + cluster.node("h4").address().replace(".", "\\.") + " ended \\(the host, its link or its sshd went away\\))");
        }
    }

    @Test
    void coordinatorDyingTakesTheRemoteStepWithIt() throws Exception {
        String marker = Integer.toString(3000 + (int) (ProcessHandle.current().pid() % 1000));
        try (SshLauncher l = launcher()) {
            WrappedStep step = l.start(cluster.node("h1"), List.of(), List.of("sleep", marker),
                    Duration.ofSeconds(60));
            awaitProcess("h1", "sleep " + marker, true);
            // what kill -9 of railyard does to its ssh children: the connection just ends
            step.transportProcess().destroyForcibly();
            awaitProcess("h1", "sleep " + marker, false);
        }
    }

    @Test
    void ctrlCReachingSshLeavesTheStepToTheLauncher() throws Exception {
        String marker = Integer.toString(5000 + (int) (ProcessHandle.current().pid() % 1000));
        try (SshLauncher l = launcher()) {
            WrappedStep step = l.start(cluster.node("h2"), List.of(), List.of("sleep", marker),
                    Duration.ofSeconds(60));
            awaitProcess("h2", "sleep " + marker, true);
            // Ctrl-C on a terminal signals the whole foreground process group, railyard's ssh children included:
            // the coordinator alone decides how its steps end (before, ssh died with exit 255, "unreachable")
            for (String signal : List.of("INT", "TERM", "HUP", "QUIT")) {
                CommandRunner.Result kill = CommandRunner.system().run(List.of("kill", "-" + signal,
                        Long.toString(step.transportProcess().pid())), Duration.ofSeconds(10));
                assertThat(kill.ok()).as(kill.stderr()).isTrue();
            }
            Thread.sleep(500);
            assertThat(step.isAlive()).isTrue();
            step.close();
            assertThat(step.await(Duration.ofSeconds(1)).status()).isEqualTo(StepStatus.INTERRUPTED);
            awaitProcess("h2", "sleep " + marker, false);
        }
    }

    /** Polls the host's processes until one whose command line contains {@code text} is there (or gone). */
    private static void awaitProcess(String host, String text, boolean present) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (processesIn(host).stream().anyMatch(c -> c.contains(text)) != present) {
            assertThat(System.nanoTime()).as("a process with \"" + text + "\" on " + host
                    + (present ? " to start" : " to end")).isLessThan(deadline);
            Thread.sleep(100);
        }
    }

    private static List<String> processesIn(String host) {
        CommandRunner.Result r = CommandRunner.system().run(List.of("ip", "netns", "pids", cluster.namespace(host)),
                Duration.ofSeconds(10));
        return r.stdout().lines().map(String::strip).filter(s -> !s.isEmpty())
                .map(pid -> ProcessHandle.of(Long.parseLong(pid)))
                .flatMap(Optional::stream)
                .map(p -> p.info().commandLine().orElse(""))
                .toList();
    }
}
