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
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A fabric interface that the installer's netplan file also defines: the diff names that file, --apply refuses,
 * --take-over IFACE removes the interface from it (backed up, undone by --undo), and the real
 * {@code netplan generate --root-dir} then gives the interface one address, where without the take-over it gives two.
 */
class ApplyTakeOverTest {

    private static final String S4 = "examples/s4-h100-hdr.yaml";
    private static final String CLOUD_INIT = """
            # This file is generated from information provided by the datasource.
            network:
                version: 2
                ethernets:
                    eth0:
                        dhcp4: true
                    ib0:
                        addresses:
                        - 10.0.9.1/24
                        dhcp4: false
            """;

    private static Path root(Path root) throws IOException {
        Files.createDirectories(root.resolve("etc/netplan"));
        Files.writeString(root.resolve("etc/netplan/50-cloud-init.yaml"), CLOUD_INIT);
        Files.setPosixFilePermissions(root.resolve("etc/netplan/50-cloud-init.yaml"), java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        return root;
    }

    private static CliRun apply(Path root, String... more) {
        List<String> args = new java.util.ArrayList<>(List.of("apply", "--spec", S4, "--node", "compute01", "--root", root.toString()));
        args.addAll(List.of(more));
        return CliRun.of(args.toArray(String[]::new));
    }

    @Test
    void theDiffNamesTheOtherFileAndApplyRefuses(@TempDir Path dir) throws IOException {
        Path root = root(dir);
        CliRun dry = apply(root);
        assertThat(dry.out()).contains("note /etc/netplan/60-railyard-fabric.yaml: ib0 is also defined in /etc/netplan/50-cloud-init.yaml: "
                + "netplan merges it with railyard's file (addresses there: 10.0.9.1/24); --apply refuses unless --take-over ib0");
        Map<String, String> before = TreeSnapshot.of(root);
        CliRun r = apply(root, "--apply");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("ib0 is also defined in /etc/netplan/50-cloud-init.yaml").contains("nothing was changed")
                .contains("railyard apply --apply --take-over ib0");
        assertThat(TreeSnapshot.of(root)).isEqualTo(before);
    }

    @Test
    void takeOverRemovesTheStanzaAndNetplanGivesOneAddressUndoPutsItBack(@TempDir Path dir) throws IOException {
        Path root = root(dir);
        CliRun r = apply(root, "--apply", "--take-over", "ib0");
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("note /etc/netplan/50-cloud-init.yaml: taken over ib0 (--take-over): its stanza is removed from this file");
        String cloud = Files.readString(root.resolve("etc/netplan/50-cloud-init.yaml"));
        assertThat(cloud).contains("        eth0:\n            dhcp4: true\n").doesNotContain("ib0").doesNotContain("10.0.9.1");
        assertThat(addresses(root, "ib0")).containsExactly("Address=10.0.2.11/24");
        assertThat(addresses(root, "eth0")).isEmpty(); // still dhcp, from the installer's file

        CliRun undo = CliRun.of("apply", "--undo", "--root", root.toString());
        assertThat(undo.code()).as(undo.err()).isZero();
        assertThat(Files.readString(root.resolve("etc/netplan/50-cloud-init.yaml"))).isEqualTo(CLOUD_INIT);
    }

    @Test
    void withoutTheTakeOverNetplanWouldGiveBothAddresses(@TempDir Path dir) throws IOException {
        Path root = root(dir);
        // what an apply that ignored the other file would leave: railyard's file beside the installer's
        Path out = dir.resolve("rendered");
        assertThat(CliRun.of("render", "--spec", S4, "--node", "compute01", "--out", out.toString()).code()).isZero();
        Files.copy(out.resolve("etc/netplan/60-railyard-fabric.yaml"), root.resolve("etc/netplan/60-railyard-fabric.yaml"));
        Files.setPosixFilePermissions(root.resolve("etc/netplan/60-railyard-fabric.yaml"), java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        assertThat(addresses(root, "ib0")).containsExactlyInAnyOrder("Address=10.0.9.1/24", "Address=10.0.2.11/24");
    }

    /** The Address= lines netplan generate writes for the interface's systemd-networkd file. */
    private static List<String> addresses(Path root, String iface) throws IOException {
        Path netplan = Path.of("/usr/sbin/netplan");
        if (!Files.isExecutable(netplan)) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) throw new AssertionError("CI=true but netplan is not installed");
            assumeTrue(false, "netplan is not installed (apt-get install netplan.io)");
        }
        CommandRunner.Result r = CommandRunner.system().run(List.of(netplan.toString(), "generate", "--root-dir", root.toString()), Duration.ofSeconds(60));
        assertThat(r.exitCode()).as(r.stdout() + r.stderr()).isZero();
        Path network = root.resolve("run/systemd/network/10-netplan-" + iface + ".network");
        assertThat(network).exists();
        return Files.readAllLines(network).stream().filter(l -> l.startsWith("Address=")).toList();
    }
}
