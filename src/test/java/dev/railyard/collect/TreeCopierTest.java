package dev.railyard.collect;

import dev.railyard.platform.HostRoot;
import dev.railyard.model.Reading;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class TreeCopierTest {

    @TempDir
    Path live;

    @TempDir
    Path copy;

    @Test
    void keepsSymlinksAndCopiesWhatTheyPointAt() throws Exception {
        Path dev = Files.createDirectories(live.resolve("sys/devices/pci0000:00/0000:00:03.0/0000:06:00.0/net/ens6d1"));
        Files.writeString(dev.resolve("mtu"), "9000\n");
        Files.writeString(dev.resolve("operstate"), "up\n");
        Files.createDirectories(live.resolve("sys/class/net"));
        Files.createSymbolicLink(live.resolve("sys/class/net/ens6d1"),
                Path.of("../../devices/pci0000:00/0000:00:03.0/0000:06:00.0/net/ens6d1"));

        TreeCopier copier = new TreeCopier(live, copy);
        copier.copy("sys/class/net/ens6d1/mtu", false);

        assertThat(Files.isSymbolicLink(copy.resolve("sys/class/net/ens6d1"))).isTrue();
        HostRoot copied = HostRoot.at(copy);
        assertThat(copied.readInt("sys/class/net/ens6d1/mtu")).isEqualTo(Reading.of(9000));
        assertThat(copied.realPath("sys/class/net/ens6d1"))
                .isEqualTo(Reading.of("sys/devices/pci0000:00/0000:00:03.0/0000:06:00.0/net/ens6d1"));
        // only what was asked for: operstate was not read, so it is not in the capture
        assertThat(copied.read("sys/class/net/ens6d1/operstate")).isInstanceOf(Reading.Absent.class);
        assertThat(copier.problems()).isEmpty();
    }

    @Test
    void aListedDirectoryKeepsItsEntriesSoReadersSeeTheSameNames() throws Exception {
        Path ib = Files.createDirectories(live.resolve("sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/infiniband/mlx5_0"));
        Files.writeString(ib.resolve("fw_ver"), "28.39.1002\n");
        Files.createDirectories(live.resolve("sys/class/infiniband"));
        Files.createSymbolicLink(live.resolve("sys/class/infiniband/mlx5_0"),
                Path.of("../../devices/pci0000:00/0000:00:01.0/0000:01:00.0/infiniband/mlx5_0"));

        TreeCopier copier = new TreeCopier(live, copy);
        copier.copy("sys/class/infiniband", true);

        HostRoot copied = HostRoot.at(copy);
        assertThat(copied.list("sys/class/infiniband")).containsExactly("mlx5_0");
        assertThat(Files.isSymbolicLink(copy.resolve("sys/class/infiniband/mlx5_0"))).isTrue();
    }
}
