package dev.railyard.apply;

import dev.railyard.cli.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * S3's r720 on a scratch root that reads as RHEL 9 (etc/os-release) with the installer's NetworkManager profile
 * for ib0: the diff says which IPoIB mode and why, names the other profile, and --take-over stops that profile from
 * autoconnecting (backed up, undone).
 */
class ApplyOnRhelTest {

    private static final String S3 = "examples/s3-r730-ib-qdr.yaml";
    private static final String INSTALLER_PROFILE = """
            [connection]
            id=ib0
            uuid=6f1d2c0e-3b7a-4c55-9a51-0d5b6a9e4f10
            type=infiniband
            interface-name=ib0
            autoconnect=true

            [infiniband]
            transport-mode=datagram

            [ipv4]
            method=auto
            """;

    private static Path root(Path root) throws IOException {
        Files.createDirectories(root.resolve("etc/NetworkManager/system-connections"));
        Files.writeString(root.resolve("etc/os-release"), "NAME=\"Red Hat Enterprise Linux\"\nID=\"rhel\"\nVERSION_ID=\"9.4\"\n");
        Files.writeString(root.resolve("etc/hostname"), "r720\n");
        Files.writeString(root.resolve("etc/NetworkManager/system-connections/ib0.nmconnection"), INSTALLER_PROFILE);
        return root;
    }

    private static CliRun apply(Path root, String... more) {
        List<String> args = new java.util.ArrayList<>(List.of("apply", "--spec", S3, "--node", "r720", "--root", root.toString()));
        args.addAll(List.of(more));
        return CliRun.of(args.toArray(String[]::new));
    }

    @Test
    void theDiffSaysTheModeAndNamesTheOtherProfile(@TempDir Path dir) throws IOException {
        Path root = root(dir);
        CliRun dry = apply(root);
        String keyfile = "note /etc/NetworkManager/system-connections/railyard-ib.nmconnection: ";
        assertThat(dry.out()).contains(keyfile + "ib0: IPoIB datagram, MTU 4092: mlx5 (ConnectX-4 and later) on RHEL 9 runs enhanced IPoIB")
                .contains(keyfile + "ib0 is also defined in /etc/NetworkManager/system-connections/ib0.nmconnection: a second NetworkManager profile");
        assertThat(apply(root, "--apply").code()).isEqualTo(2);
    }

    @Test
    void takeOverStopsTheOtherProfileFromAutoconnectingAndUndoRestoresIt(@TempDir Path dir) throws IOException {
        Path root = root(dir);
        CliRun r = apply(root, "--apply", "--take-over", "ib0", "--no-start");
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        assertThat(Files.readString(root.resolve("etc/NetworkManager/system-connections/ib0.nmconnection")))
                .isEqualTo(INSTALLER_PROFILE.replace("autoconnect=true", "autoconnect=false"));
        assertThat(Files.readString(root.resolve("etc/NetworkManager/system-connections/railyard-ib.nmconnection")))
                .contains("mtu=4092\ntransport-mode=datagram\n");
        assertThat(CliRun.of("apply", "--undo", "--root", root.toString()).code()).isZero();
        assertThat(Files.readString(root.resolve("etc/NetworkManager/system-connections/ib0.nmconnection"))).isEqualTo(INSTALLER_PROFILE);
    }
}
