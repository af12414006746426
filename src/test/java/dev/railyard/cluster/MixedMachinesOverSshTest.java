package dev.railyard.cluster;

import dev.railyard.model.ClusterSpec;
import dev.railyard.platform.CommandRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A cluster of two machines over real sshd (scripts/testcluster.sh). No aarch64 host is at hand, so the other
 * machine is the bundle's: a copy of the test bundle whose runtime/bin/java says aarch64 in its ELF header, which
 * this x86_64 kernel truly refuses to run ("exec format error"). The nodes' {@code uname -m} is real.
 */
@Tag("tools")
class MixedMachinesOverSshTest {

    private static final Duration PREPARE = Duration.ofSeconds(180);
    static TestCluster cluster;
    static Bundle native_;
    static Bundle foreign;

    @BeforeAll
    static void up() throws IOException {
        cluster = TestCluster.up("mix", 2);
        native_ = TestBundle.build();
        foreign = otherMachine(native_, Path.of("target", "bundle-cache").toAbsolutePath());
    }

    @AfterAll
    static void down() {
        if (cluster != null) cluster.close();
    }

    /** The bundle unpacked, its java's e_machine set to AArch64 (0xB7), its BUNDLE hash changed, packed again. */
    static Bundle otherMachine(Bundle bundle, Path dir) throws IOException {
        Path work = Files.createTempDirectory(dir, "aarch64-");
        run(List.of("tar", "-xzf", bundle.tarball().toString(), "-C", work.toString()));
        Path java = work.resolve("runtime/bin/java");
        try (RandomAccessFile f = new RandomAccessFile(java.toFile(), "rw")) {
            f.seek(18);
            f.write(new byte[]{(byte) 0xB7, 0});
        }
        Path stated = work.resolve("BUNDLE");
        String hash = "a4c4" + bundle.hash().substring(4);
        Files.writeString(stated, Files.readString(stated).replace(bundle.hash(), hash));
        Path tarball = dir.resolve("railyard-" + hash + ".tar.gz");
        run(List.of("tar", "-czf", tarball.toString(), "-C", work.toString(), "."));
        run(List.of("rm", "-rf", work.toString()));
        Bundle b = Bundle.fromFile(tarball);
        assertThat(b.hash()).isEqualTo(hash);
        assertThat(BundleArchitecture.of(tarball)).contains("aarch64");
        return b;
    }

    private static void run(List<String> argv) {
        CommandRunner.Result r = CommandRunner.system().run(argv, Duration.ofMinutes(2), Path.of("."), Map.of());
        assertThat(r.ok()).as(argv + ": " + r.stderr()).isTrue();
    }

    private static ClusterSpec withJava(String node, Optional<String> java) {
        ClusterSpec s = cluster.spec();
        List<ClusterSpec.Node> nodes = s.nodes().stream().map(n -> !n.name().equals(node) ? n
                : new ClusterSpec.Node(n.name(), n.address(), n.bmc(), n.gpus(), n.osFamily(), n.disableNetdevs(),
                n.ssh(), java)).toList();
        return new ClusterSpec(s.cluster(), s.source(), nodes, s.gpus(), s.networks(), s.expect(), s.slurm(),
                s.sshUser(), s.ssh(), s.agent());
    }

    /** Each case starts with no copy of the other machine's bundle on any node (the nodes are shared by the cases). */
    @BeforeEach
    void noForeignCopy() {
        run(List.of("rm", "-rf", cached("h1", foreign).toString(), cached("h2", foreign).toString()));
    }

    private static Path cached(String node, Bundle b) {
        return cluster.dir().resolve(node + "/cache/railyard").resolve(b.hash());
    }

    @Test
    void aNodeOfAnotherMachineIsRefusedBeforeAnythingIsCopied() throws Exception {
        try (SshLauncher l = new SshLauncher(cluster.spec(), new RemoteRailyard.FromBundle(foreign))) {
            StepResult r = l.prepare(cluster.node("h1"), PREPARE);
            assertThat(r.status()).isEqualTo(StepStatus.LAUNCH_FAILED);
            assertThat(r.detail()).startsWith("h1 is x86_64 but the bundle is built for aarch64: build one on a x86_64 "
                    + "machine with 'railyard bundle --out railyard-x86_64.tar.gz' and add it with --bundle, or name the"
                    + " node's JDK 25 in the spec");
        }
        assertThat(cached("h1", foreign)).doesNotExist();
    }

    @Test
    void eachNodeGetsTheBundleOfItsMachine() throws Exception {
        try (SshLauncher l = new SshLauncher(cluster.spec(), new RemoteRailyard.FromBundle(List.of(foreign, native_)))) {
            StepResult r = l.prepare(cluster.node("h2"), PREPARE);
            assertThat(r.status()).as(r.detail() + r.stderr()).isEqualTo(StepStatus.EXITED);
            assertThat(r.detail()).contains(native_.hash()).doesNotContain(foreign.hash());
            StepResult version = l.run(cluster.node("h2"), List.of("--version"), Duration.ofSeconds(60));
            assertThat(version.exitCode()).as(version.stderr()).isZero();
        }
        assertThat(cached("h2", foreign)).doesNotExist();
    }

    @Test
    void theNodesOwnJdkRunsABundleOfAnotherMachine() throws Exception {
        String jdk = System.getProperty("java.home");
        ClusterSpec spec = withJava("h1", Optional.of(jdk));
        try (SshLauncher l = new SshLauncher(spec, new RemoteRailyard.FromBundle(foreign))) {
            StepResult r = l.prepare(spec.node("h1").orElseThrow(), PREPARE);
            assertThat(r.status()).as(r.detail() + r.stderr()).isEqualTo(StepStatus.EXITED);
            assertThat(r.detail()).contains(foreign.hash()).endsWith("(run with " + jdk + ")");
            StepResult inventory = l.run(spec.node("h1").orElseThrow(), List.of("--version"), Duration.ofSeconds(60));
            assertThat(inventory.exitCode()).as(inventory.stderr()).isZero();
        }
        // the bundle's own runtime is truly of another machine: run directly, the kernel refuses it
        CommandRunner.Result direct = CommandRunner.system().run(List.of(cached("h1", foreign)
                .resolve("runtime/bin/java").toString(), "-version"), Duration.ofSeconds(30), Path.of("."), Map.of());
        assertThat(direct.ok()).isFalse();
    }

    @Test
    void aNamedJdkThatDoesNotRunIsOneSentence() throws Exception {
        ClusterSpec spec = withJava("h2", Optional.of("/opt/no-such-jdk"));
        try (SshLauncher l = new SshLauncher(spec, new RemoteRailyard.FromBundle(foreign))) {
            StepResult r = l.prepare(spec.node("h2").orElseThrow(), PREPARE);
            assertThat(r.status()).isEqualTo(StepStatus.LAUNCH_FAILED);
            assertThat(r.detail()).startsWith("the JDK named for h2 in the spec (java: /opt/no-such-jdk) did not start"
                    + " Railyard (exit 127").endsWith("name the home of a JDK 25 there, or add a bundle built on such a"
                    + " machine with --bundle");
        }
    }
}
