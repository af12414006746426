package dev.railyard.platform;

import dev.railyard.model.Reading;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class HostRootTest {

    @TempDir
    Path dir;

    @Test
    void readsTrimmedAttributesAndSaysWhyOneIsMissing() throws Exception {
        Files.createDirectories(dir.resolve("sys/class/net/eth0"));
        Files.writeString(dir.resolve("sys/class/net/eth0/mtu"), "9000\n");
        Files.writeString(dir.resolve("sys/class/net/eth0/speed"), "fast\n");
        HostRoot root = HostRoot.at(dir);
        assertThat(root.readInt("sys/class/net/eth0/mtu")).isEqualTo(Reading.of(9000));
        assertThat(root.readInt("/sys/class/net/eth0/mtu")).isEqualTo(Reading.of(9000));
        assertThat(root.read("sys/class/net/eth0/carrier")).isInstanceOf(Reading.Absent.class);
        assertThat(root.readLong("sys/class/net/eth0/speed"))
                .isEqualTo(Reading.failed("sys/class/net/eth0/speed", "not a number: \"fast\""));
        assertThat(root.isLive()).isFalse();
    }

    @Test
    void resolvesSymlinksInsideTheRoot() throws Exception {
        Path dev = Files.createDirectories(dir.resolve("sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0"));
        Files.createDirectories(dir.resolve("sys/bus/pci/devices"));
        Files.createSymbolicLink(dir.resolve("sys/bus/pci/devices/0000:01:00.0"),
                Path.of("../../../devices/pci0000:00/0000:00:01.0/0000:01:00.0"));
        HostRoot root = HostRoot.at(dir);
        assertThat(root.realPath("sys/bus/pci/devices/0000:01:00.0"))
                .isEqualTo(Reading.of("sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0"));
        assertThat(root.linkName("sys/bus/pci/devices/0000:01:00.0")).isEqualTo(Reading.of("0000:01:00.0"));
        assertThat(Files.isDirectory(dev)).isTrue();
    }

    @Test
    void listsNaturallyAndTreatsAMissingDirectoryAsEmpty() throws Exception {
        for (String n : List.of("mlx5_10", "mlx5_2", "mlx5_0")) Files.createDirectories(dir.resolve("sys/class/infiniband/" + n));
        HostRoot root = HostRoot.at(dir);
        assertThat(root.list("sys/class/infiniband")).containsExactly("mlx5_0", "mlx5_2", "mlx5_10");
        assertThat(root.list("sys/class/nope")).isEmpty();
    }

    @Test
    void aCapturedRootReportsWhatCouldNotBeReadLiveAsFailed() throws Exception {
        Files.createDirectories(dir.resolve("railyard"));
        Files.writeString(dir.resolve(HostRoot.UNREADABLE_LIST),
                "sys/devices/virtual/net/ifb0/carrier: Invalid argument\n");
        HostRoot root = HostRoot.at(dir);
        assertThat(root.read("sys/devices/virtual/net/ifb0/carrier"))
                .isEqualTo(Reading.failed("sys/devices/virtual/net/ifb0/carrier", "Invalid argument"));
        assertThat(root.read("sys/devices/virtual/net/ifb0/speed")).isInstanceOf(Reading.Absent.class);
    }
}
