package dev.railyard.cluster;

import dev.railyard.model.ClusterSpec;
import dev.railyard.platform.CommandRunner;
import dev.railyard.spec.SpecReader;
import org.junit.jupiter.api.Assumptions;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * scripts/testcluster.sh driven from a test: N namespace hosts, each with its own sshd. Needs root, iproute2 and
 * OpenSSH; where they are missing the test is skipped with the reason, except in CI (CI=true), where that is a failure.
 */
final class TestCluster implements AutoCloseable {

    static final Path SCRIPT = Path.of("scripts/testcluster.sh").toAbsolutePath();

    private final Path dir;
    private final String prefix;
    private final ClusterSpec spec;

    private TestCluster(Path dir, String prefix) {
        this.dir = dir;
        this.prefix = prefix;
        this.spec = new SpecReader().read(dir.resolve("cluster.yaml"));
    }

    /** Skips (locally) or fails (CI) when this machine cannot run the namespace cluster. */
    static void requireTools() {
        List<String> missing = new ArrayList<>();
        if (!"root".equals(System.getProperty("user.name"))) missing.add("root");
        for (String tool : List.of("/usr/sbin/sshd", "/usr/bin/ssh", "/usr/bin/ssh-keygen")) {
            if (!Files.isExecutable(Path.of(tool))) missing.add(tool);
        }
        if (!Files.isExecutable(Path.of("/usr/sbin/ip")) && !Files.isExecutable(Path.of("/sbin/ip"))) {
            missing.add("ip");
        }
        String why = "namespace cluster needs " + String.join(", ", missing)
                + " (apt-get install openssh-server openssh-client iproute2; run as root)";
        if ("true".equals(System.getenv("CI"))) {
            if (!missing.isEmpty()) throw new AssertionError(why);
        } else {
            Assumptions.assumeTrue(missing.isEmpty(), why);
        }
    }

    /**
     * Brings up {@code n} hosts; {@code name} keeps concurrent test classes apart (namespaces, links, dir). Test runs
     * of several checkouts on one machine keep apart with RY_TESTCLUSTER_TAG (up to 3 lower-case letters or digits,
     * added to the names) and RY_TESTCLUSTER_NET (the script's first two octets, default 10.78; ApplyOverSshTest
     * expects 10.78).
     */
    static TestCluster up(String name, int n, String... upArgs) {
        requireTools();
        String tag = System.getenv().getOrDefault("RY_TESTCLUSTER_TAG", "");
        if (!tag.matches("[a-z0-9]{0,3}")) throw new IllegalArgumentException("RY_TESTCLUSTER_TAG: 0-3 of a-z, 0-9");
        Path dir = Path.of("/tmp", "railyard-tc-" + name + tag);
        String prefix = "ry" + name + tag;
        List<String> argv = new ArrayList<>(List.of(SCRIPT.toString(), "up", Integer.toString(n)));
        argv.addAll(List.of(upArgs));
        TestCluster c = null;
        try {
            script(dir, prefix, argv);
            c = new TestCluster(dir, prefix);
            return c;
        } finally {
            if (c == null) script(dir, prefix, List.of(SCRIPT.toString(), "down"));
        }
    }

    ClusterSpec spec() {
        return spec;
    }

    ClusterSpec.Node node(String name) {
        return spec.node(name).orElseThrow();
    }

    Path dir() {
        return dir;
    }

    /** The namespace of a host, for `ip netns pids`. */
    String namespace(String host) {
        return prefix + "-" + host;
    }

    void verb(String... args) {
        List<String> argv = new ArrayList<>(List.of(SCRIPT.toString()));
        argv.addAll(List.of(args));
        script(dir, prefix, argv);
    }

    private static void script(Path dir, String prefix, List<String> argv) {
        CommandRunner.Result r = CommandRunner.system().run(argv, Duration.ofMinutes(2), Path.of("."),
                java.util.Map.of("RY_TESTCLUSTER_DIR", dir.toString(), "RY_TESTCLUSTER_PREFIX", prefix));
        if (!r.ok()) {
            throw new IllegalStateException(argv + " failed (" + r.exitCode() + "): " + r.stderr() + r.stdout());
        }
    }

    @Override
    public void close() {
        verb("down");
    }
}
