package dev.railyard.apply;

import dev.railyard.cli.CliRun;
import dev.railyard.platform.CommandRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * /etc/hosts as a managed block merged into the node's own file: the installer's 127.0.1.1 line for the node is
 * commented out, the user's lines are kept, and the real resolver (getent, in a mount namespace with the applied
 * file bound over /etc/hosts) returns the management address for the node's own name.
 */
class ManagedHostsTest {

    private static final String S4 = "examples/s4-h100-hdr.yaml";
    /** What Debian's installer writes, plus a line of the user's own. */
    private static final String DEBIAN_HOSTS = """
            127.0.0.1\tlocalhost
            127.0.1.1\tcompute01.cluster.example\tcompute01

            # The following lines are desirable for IPv6 capable hosts
            ::1     localhost ip6-localhost ip6-loopback
            10.9.9.9 nas
            """;

    private static Path root(Path root) throws IOException {
        Files.createDirectories(root.resolve("etc"));
        Files.writeString(root.resolve("etc/hosts"), DEBIAN_HOSTS);
        return root;
    }

    private static CliRun apply(Path root, String... more) {
        List<String> args = new java.util.ArrayList<>(List.of("apply", "--spec", S4, "--node", "compute01", "--root", root.toString()));
        args.addAll(List.of(more));
        return CliRun.of(args.toArray(String[]::new));
    }

    @Test
    void applyKeepsTheUsersLinesAndSaysSo(@TempDir Path dir) throws IOException {
        Path root = root(dir);
        CliRun dry = apply(root);
        assertThat(dry.out()).contains("note /etc/hosts: kept 3 line(s) outside railyard's managed block: '127.0.0.1\tlocalhost'; "
                        + "'::1     localhost ip6-localhost ip6-loopback'; '10.9.9.9 nas'")
                .contains("note /etc/hosts: commented out '127.0.1.1\tcompute01.cluster.example\tcompute01': compute01 resolves from the managed block")
                .contains("-127.0.1.1\tcompute01.cluster.example\tcompute01\n");
        CliRun r = apply(root, "--apply");
        assertThat(r.code()).as(r.err()).isZero();
        String hosts = Files.readString(root.resolve("etc/hosts"));
        assertThat(hosts).startsWith("127.0.0.1\tlocalhost\n# railyard commented this out (the managed block sets it): 127.0.1.1\t")
                .contains("\n10.9.9.9 nas\n\n# BEGIN railyard managed block").contains("\n10.0.1.11\tcompute01\n").endsWith("# END railyard managed block\n")
                .doesNotContain("\n127.0.1.1");

        CliRun again = apply(root, "--apply");
        assertThat(again.out()).contains("nothing to change");

        // the user edits outside the block after the apply; the next apply keeps that edit and rewrites only the block
        Files.writeString(root.resolve("etc/hosts"), hosts.replace("10.9.9.9 nas", "10.9.9.10 nas").replace("10.0.1.12\tcompute02", "10.0.1.99\tcompute02"));
        CliRun third = apply(root);
        assertThat(third.out()).contains("-10.0.1.99\tcompute02\n+10.0.1.12\tcompute02\n").doesNotContain("-10.9.9.10 nas");
    }

    @Test
    void theRealResolverGivesTheManagementAddressForTheNodesOwnName(@TempDir Path dir) throws IOException {
        Path root = root(dir);
        assertThat(apply(root, "--apply").code()).isZero();
        List<String> lines = getent(root.resolve("etc/hosts"), "compute01", "compute08-ib-hdr", "nas", "localhost");
        assertThat(lines).hasSize(4);
        assertThat(lines.get(0).split("\\s+")).containsExactly("10.0.1.11", "compute01");
        assertThat(lines.get(1).split("\\s+")).containsExactly("10.0.2.18", "compute08-ib-hdr");
        assertThat(lines.get(2).split("\\s+")).containsExactly("10.9.9.9", "nas");
        assertThat(lines.get(3).split("\\s+")[0]).isIn("127.0.0.1", "::1");
    }

    /** getent hosts for each name with {@code hosts} bound over /etc/hosts in a mount namespace of its own. */
    static List<String> getent(Path hosts, String... names) {
        CommandRunner run = CommandRunner.system();
        CommandRunner.Result id = run.run(List.of("id", "-u"), Duration.ofSeconds(10));
        boolean root = id.ok() && id.stdout().strip().equals("0");
        if (!root || !Files.isExecutable(Path.of("/usr/bin/unshare"))) {
            String why = "needs root and unshare(1) for a mount namespace";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) fail("CI=true but this test " + why);
            assumeTrue(false, why);
        }
        List<String> argv = new java.util.ArrayList<>(List.of("/usr/bin/unshare", "-m", "--propagation", "private",
                Path.of("src/test/resources/render/getent-with-hosts.sh").toAbsolutePath().toString(), hosts.toString()));
        argv.addAll(List.of(names));
        CommandRunner.Result r = run.run(argv, Duration.ofSeconds(20));
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        return r.stdout().lines().toList();
    }
}
