package dev.railyard.platform;

import dev.railyard.model.Reading;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/** Reading a node tree: no read blocks, none is unbounded, none leaves the root, no number is narrowed. */
class HostRootIntegrityTest {

    /** Generous: the regression is a read that never returns, not a slow one. */
    private static final Duration HANG = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private Path write(String relative, String content) throws IOException {
        Path p = dir.resolve(relative);
        Files.createDirectories(p.getParent());
        Files.writeString(p, content);
        return p;
    }

    /** mkfifo(1) through an argv list: Java has no call to make a FIFO. */
    static void mkfifo(Path p) throws IOException, InterruptedException {
        Files.createDirectories(p.getParent());
        Process proc = new ProcessBuilder(List.of("mkfifo", p.toString())).redirectErrorStream(true).start();
        assertThat(proc.waitFor()).as("mkfifo " + p).isZero();
    }

    @Test
    void aFifoIsAFailedReadingNotAHang() throws Exception {
        mkfifo(dir.resolve("sys/class/infiniband/mlx5_0/ports/1/state"));
        mkfifo(dir.resolve("proc/sys/kernel/hostname"));
        HostRoot root = HostRoot.at(dir);
        assertTimeoutPreemptively(HANG, () -> {
            assertThat(root.read("sys/class/infiniband/mlx5_0/ports/1/state")).isEqualTo(Reading.failed(
                    "sys/class/infiniband/mlx5_0/ports/1/state", "not a regular file (a FIFO, socket or device): not read"));
            assertThat(root.readLong("proc/sys/kernel/hostname")).isInstanceOf(Reading.Failed.class);
        });
    }

    @Test
    void aDirectoryWhereAnAttributeShouldBeIsFailed() throws Exception {
        Files.createDirectories(dir.resolve("sys/class/net/eth0/mtu"));
        assertThat(HostRoot.at(dir).readInt("sys/class/net/eth0/mtu"))
                .isEqualTo(Reading.failed("sys/class/net/eth0/mtu", "a directory, not an attribute file"));
    }

    @Test
    void anAttributeLargerThanTheCapIsFailedAndNotEchoed() throws Exception {
        write("sys/class/net/eth0/address", "a".repeat(HostRoot.ATTRIBUTE_MAX_BYTES + 1));
        write("sys/class/net/eth0/mtu", "9".repeat(HostRoot.ATTRIBUTE_MAX_BYTES));
        HostRoot root = HostRoot.at(dir);
        assertThat(root.read("sys/class/net/eth0/address")).isEqualTo(Reading.failed("sys/class/net/eth0/address",
                "larger than " + HostRoot.ATTRIBUTE_MAX_BYTES + " bytes: not read"));
        Reading<Long> mtu = root.readLong("sys/class/net/eth0/mtu");
        assertThat(mtu).isInstanceOf(Reading.Failed.class);
        assertThat(mtu.describe()).hasSizeLessThan(200).contains("…[cut: " + HostRoot.ATTRIBUTE_MAX_BYTES + " chars]");
    }

    @Test
    void bytesThatAreNotUtf8TextAreFailed() throws Exception {
        Files.createDirectories(dir.resolve("sys/class/net/eth0"));
        Files.write(dir.resolve("sys/class/net/eth0/operstate"), new byte[]{'u', (byte) 0xff, 'p'});
        Files.write(dir.resolve("sys/class/net/eth0/carrier"), new byte[]{'1', 0, '\n'});
        HostRoot root = HostRoot.at(dir);
        assertThat(root.read("sys/class/net/eth0/operstate"))
                .isEqualTo(Reading.failed("sys/class/net/eth0/operstate", "not UTF-8 text"));
        assertThat(root.read("sys/class/net/eth0/carrier"))
                .isEqualTo(Reading.failed("sys/class/net/eth0/carrier", "binary content (NUL bytes), not text"));
    }

    @Test
    void readIntNeverNarrowsALong() throws Exception {
        write("sys/class/net/eth0/mtu", "4294976296\n"); // 2^32 + 9000: (int) gives 9000
        write("sys/devices/x/current_link_width", "4294967312\n"); // 2^32 + 16
        HostRoot root = HostRoot.at(dir);
        assertThat(root.readInt("sys/class/net/eth0/mtu")).isInstanceOfSatisfying(Reading.Failed.class,
                f -> assertThat(f.cause()).startsWith("out of range: 4294976296"));
        assertThat(root.readInt("sys/devices/x/current_link_width")).isInstanceOf(Reading.Failed.class);
        assertThat(root.readInt("sys/devices/x/current_link_width", 1, 32)).isInstanceOf(Reading.Failed.class);
    }

    @Test
    void numbersMustBeTheWholeText() throws Exception {
        write("a", "17 garbage\n");
        write("b", "17\n18\n");
        write("c", "99999999999999999999999\n");
        write("d", "0x10de\n");
        write("e", "0x\n");
        HostRoot root = HostRoot.at(dir);
        for (String f : List.of("a", "b", "c", "e")) assertThat(root.readLong(f)).as(f).isInstanceOf(Reading.Failed.class);
        assertThat(root.readLong("d")).isEqualTo(Reading.of(0x10deL));
    }

    @Test
    void anAbsoluteSymlinkIsFailedNamingTheLinkAndNothingOutsideIsRead() throws Exception {
        Path outside = write("../outside/rmem_max", "268435456\n");
        Path tree = Files.createDirectories(dir.resolve("tree"));
        Files.createDirectories(tree.resolve("proc/sys/net/core"));
        Files.createSymbolicLink(tree.resolve("proc/sys/net/core/rmem_max"), outside.toAbsolutePath());
        Files.createDirectories(tree.resolve("sys/class"));
        Files.createSymbolicLink(tree.resolve("sys/class/net"), Path.of("/sys/class/net"));
        HostRoot root = HostRoot.at(tree);
        assertThat(root.readLong("proc/sys/net/core/rmem_max")).isEqualTo(Reading.failed("proc/sys/net/core/rmem_max",
                "symlink points outside the root: -> " + outside.toAbsolutePath()));
        assertThat(root.list("sys/class/net")).isEmpty();
        assertThat(root.listing("sys/class/net")).isEqualTo(Reading.failed("sys/class/net",
                "symlink points outside the root: -> /sys/class/net"));
        assertThat(root.read("sys/class/net/lo/mtu")).isInstanceOf(Reading.Failed.class);
        assertThat(root.exists("sys/class/net/lo")).isFalse();
        assertThat(root.isDirectory("sys/class/net")).isFalse();
    }

    @Test
    void aRelativeSymlinkClimbingOutOfTheRootIsFailedNamingTheLink() throws Exception {
        write("outside/rmem_max", "268435456\n");
        Path tree = Files.createDirectories(dir.resolve("tree"));
        Files.createDirectories(tree.resolve("proc/sys/net/core"));
        Files.createSymbolicLink(tree.resolve("proc/sys/net/core/rmem_max"), Path.of("../../../../../outside/rmem_max"));
        Files.createDirectories(tree.resolve("sys/bus/pci/devices"));
        Files.createSymbolicLink(tree.resolve("sys/bus/pci/devices/0000:01:00.0"), Path.of("../../../../.."));
        HostRoot root = HostRoot.at(tree);
        assertThat(root.readLong("proc/sys/net/core/rmem_max"))
                .isEqualTo(Reading.failed("proc/sys/net/core/rmem_max", "symlink points outside the root"));
        assertThat(root.realPath("sys/bus/pci/devices/0000:01:00.0"))
                .isEqualTo(Reading.failed("sys/bus/pci/devices/0000:01:00.0", "symlink points outside the root"));
        assertThat(root.read("../outside/rmem_max")).isEqualTo(Reading.failed("../outside/rmem_max", "climbs above the root"));
    }

    @Test
    void symlinksInsideTheRootStillWork() throws Exception {
        write("sys/devices/pci0000:00/0000:00:01.0/net/eth0/mtu", "9000\n");
        Files.createDirectories(dir.resolve("sys/class/net"));
        Files.createSymbolicLink(dir.resolve("sys/class/net/eth0"), Path.of("../../devices/pci0000:00/0000:00:01.0/net/eth0"));
        HostRoot root = HostRoot.at(dir);
        assertThat(root.readInt("sys/class/net/eth0/mtu")).isEqualTo(Reading.of(9000));
        assertThat(root.list("sys/class/net")).containsExactly("eth0");
        assertThat(root.isDirectory("sys/class/net/eth0")).isTrue();
    }

    @Test
    void danglingSymlinksAndLoopsAreFailedNamingTheLink() throws Exception {
        Files.createDirectories(dir.resolve("sys/class/net/eth0"));
        Files.createSymbolicLink(dir.resolve("sys/class/net/eth0/mtu"), Path.of("nowhere"));
        Files.createSymbolicLink(dir.resolve("sys/class/net/eth0/speed"), Path.of("speed"));
        Files.createSymbolicLink(dir.resolve("sys/class/net/eth0/a"), Path.of("b"));
        Files.createSymbolicLink(dir.resolve("sys/class/net/eth0/b"), Path.of("a"));
        HostRoot root = HostRoot.at(dir);
        assertTimeoutPreemptively(HANG, () -> {
            assertThat(root.readInt("sys/class/net/eth0/mtu")).isEqualTo(Reading.failed("sys/class/net/eth0/mtu",
                    "dangling symlink (no sys/class/net/eth0/nowhere)"));
            assertThat(root.readLong("sys/class/net/eth0/speed")).isInstanceOfSatisfying(Reading.Failed.class,
                    f -> assertThat(f.cause()).startsWith("symlink loop"));
            assertThat(root.read("sys/class/net/eth0/a")).isInstanceOf(Reading.Failed.class);
            assertThat(root.list("sys/class/net/eth0/a")).isEmpty();
        });
    }

    @Test
    void aFifoAsTheUnreadableListDoesNotHangOpeningTheRoot() throws Exception {
        mkfifo(dir.resolve(HostRoot.UNREADABLE_LIST));
        write("proc/sys/kernel/hostname", "node1\n");
        assertTimeoutPreemptively(HANG, () ->
                assertThat(HostRoot.at(dir).read("proc/sys/kernel/hostname")).isEqualTo(Reading.of("node1")));
    }

    @Test
    void largerDocumentsAreReadWithTheirOwnCap() throws Exception {
        String xml = "<nvidia_smi_log>" + "x".repeat(HostRoot.ATTRIBUTE_MAX_BYTES) + "</nvidia_smi_log>\n";
        write("railyard/nvidia-smi-q.xml", xml);
        HostRoot root = HostRoot.at(dir);
        assertThat(root.read("railyard/nvidia-smi-q.xml")).isInstanceOf(Reading.Failed.class);
        assertThat(root.readText("railyard/nvidia-smi-q.xml", 4 * HostRoot.ATTRIBUTE_MAX_BYTES)).isEqualTo(Reading.of(xml));
        assertThat(StandardCharsets.UTF_8.encode(xml).remaining()).isGreaterThan(HostRoot.ATTRIBUTE_MAX_BYTES);
    }
}
