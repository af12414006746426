package dev.railyard.cluster;

import dev.railyard.platform.CommandRunner;
import org.junit.jupiter.api.Assumptions;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * scripts/testslurm.sh driven from a test: a real munged, slurmctld and two slurmd (n1, n2) on this machine.
 * Skipped with the reason where Slurm or munge is missing, except in CI (CI=true), where that is a failure.
 */
final class TestSlurm implements AutoCloseable {

    static final Path SCRIPT = Path.of("scripts/testslurm.sh").toAbsolutePath();
    /** RY_TESTSLURM_DIR, with RY_TESTSLURM_PORT, keeps two test runs on one machine apart. */
    static final Path DIR = Path.of(System.getenv().getOrDefault("RY_TESTSLURM_DIR", "/tmp/railyard-testslurm-junit"));

    /** dir/cluster.yaml: the cluster railyardtest of nodes n1 and n2, both at {@code address} (this machine's slurmds). */
    static java.nio.file.Path twoNodeSpec(java.nio.file.Path dir, String address) throws java.io.IOException {
        return java.nio.file.Files.writeString(dir.resolve("cluster.yaml"), "cluster: railyardtest\nnodes:\n"
                + "  - {name: n1, address: " + address + "}\n  - {name: n2, address: " + address + "}\n");
    }

    static TestSlurm up() {
        List<String> missing = new ArrayList<>();
        if (!"root".equals(System.getProperty("user.name"))) missing.add("root");
        for (String tool : List.of("/usr/sbin/slurmctld", "/usr/sbin/slurmd", "/usr/sbin/munged", "/usr/bin/srun",
                "/usr/bin/sbcast", "/usr/bin/salloc")) {
            if (!Files.isExecutable(Path.of(tool))) missing.add(tool);
        }
        String why = "a test Slurm cluster needs " + String.join(", ", missing)
                + " (apt-get install slurm-wlm munge; run as root)";
        if ("true".equals(System.getenv("CI"))) {
            if (!missing.isEmpty()) throw new AssertionError(why);
        } else {
            Assumptions.assumeTrue(missing.isEmpty(), why);
        }
        TestSlurm s = new TestSlurm();
        boolean started = false;
        try {
            s.script("up");
            started = true;
            return s;
        } finally {
            if (!started) s.script("down");
        }
    }

    /** What srun, salloc and sbcast need to find this cluster; the nodes' cache under DIR, not the real home. */
    Map<String, String> environment() {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.keySet().removeIf(k -> k.startsWith("SLURM_"));
        env.put("SLURM_CONF", DIR.resolve("slurm.conf").toString());
        env.put("XDG_CACHE_HOME", DIR.resolve("cache").toString());
        return env;
    }

    CommandRunner.Result slurm(String... argv) {
        return CommandRunner.system().run(List.of(argv), Duration.ofSeconds(30), Path.of("."), environment());
    }

    private void script(String verb) {
        CommandRunner.Result r = CommandRunner.system().run(List.of(SCRIPT.toString(), verb), Duration.ofMinutes(2),
                Path.of("."), Map.of("RY_TESTSLURM_DIR", DIR.toString()));
        if (!r.ok()) throw new IllegalStateException("testslurm.sh " + verb + " failed: " + r.stderr() + r.stdout());
    }

    /** The sbcast copies of the bundle with this hash (or hash prefix) in /tmp, which both slurmd share. */
    static List<Path> bundleCopies(String hash) {
        List<Path> found = new ArrayList<>();
        try (var copies = Files.newDirectoryStream(Path.of("/tmp"), "railyard-bundle-" + hash + "*.tar.gz")) {
            copies.forEach(found::add);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return found;
    }

    /** Stops the cluster and removes the sbcast copies a failed test may have left in /tmp. */
    @Override
    public void close() {
        script("down");
        try {
            for (Path p : bundleCopies("")) Files.deleteIfExists(p);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
