package dev.railyard.platform;

import dev.railyard.model.Reading;
import dev.railyard.nativelib.OpenInRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A captured tree whose attribute is swapped, atomically and over and over (renameat2 RENAME_EXCHANGE), with a FIFO
 * and with a symlink to a file outside the tree while it is read. Every read must return, and return the tree's
 * value or a failure: never hang on the FIFO, never the outside file's value.
 */
class ReadRaceTest {

    static final String ATTRIBUTE = "proc/sys/net/core/rmem_max";
    static final int READS = 3000;
    /**
     * Each side on a thread of its own (the common pool may have one thread on a small machine), a daemon so a
     * reader blocked on the FIFO fails the test instead of holding the JVM.
     */
    static final java.util.concurrent.Executor OWN_THREAD = r -> Thread.ofPlatform().daemon().start(r);

    @TempDir
    Path tree;
    @TempDir
    Path outside;

    private Path setUp() throws Exception {
        Path file = tree.resolve(ATTRIBUTE);
        Files.createDirectories(file.getParent());
        Files.writeString(file, "212992\n");
        Files.writeString(outside.resolve("host_rmem_max"), "4194304\n");
        assertThat(new ProcessBuilder("mkfifo", file.resolveSibling("fifo").toString()).start().waitFor()).isZero();
        Files.createSymbolicLink(file.resolveSibling("link"), outside.resolve("host_rmem_max"));
        return file;
    }

    /** Swaps the attribute with the FIFO, then with the symlink, until told to stop; counts its swaps. */
    private static CompletableFuture<Integer> swapping(Path file, AtomicBoolean stop) {
        return CompletableFuture.supplyAsync(() -> {
            int swaps = 0;
            while (!stop.get()) {
                Path other = file.resolveSibling(swaps % 4 < 2 ? "fifo" : "link");
                assertThat(OpenInRoot.exchange(file, other)).isZero();
                swaps++;
            }
            return swaps;
        }, OWN_THREAD);
    }

    private static List<String> race(Path file, Supplier<String> read) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        CompletableFuture<Integer> swapper = swapping(file, stop);
        CompletableFuture<List<String>> reader = CompletableFuture.supplyAsync(() -> {
            List<String> seen = new ArrayList<>();
            for (int i = 0; i < READS; i++) seen.add(read.get());
            return seen;
        }, OWN_THREAD);
        try {
            // a read blocked on the FIFO never returns: this is the test's only limit
            return reader.get(120, TimeUnit.SECONDS);
        } finally {
            stop.set(true);
            assertThat(swapper.get(30, TimeUnit.SECONDS)).isPositive();
        }
    }

    @Test
    void swappingInAFifoOrASymlinkDuringReadsNeitherHangsNorLeaksTheHostsValue() throws Exception {
        Path file = setUp();
        HostRoot root = HostRoot.at(tree);
        assertThat(root.read(ATTRIBUTE)).isEqualTo(Reading.of("212992"));
        List<String> seen = race(file, () -> switch (root.read(ATTRIBUTE)) {
            case Reading.Present<String>(String v) -> v;
            case Reading.Failed<String>(String path, String cause) -> "failed: " + cause;
            case Reading.Absent<String>(String why) -> "absent: " + why;
        });
        assertThat(seen).doesNotContain("4194304").contains("212992");
        assertThat(seen).allMatch(v -> v.equals("212992") || v.startsWith("failed: ") || v.startsWith("absent: "));
    }

    @Test
    void theWalkWithoutOpenat2RefusesTheSwapsToo() throws Exception {
        Path file = setUp();
        List<String> seen = race(file, () -> switch (OpenInRoot.read(tree, ATTRIBUTE, 4096, false, true)) {
            case OpenInRoot.Outcome.Read(byte[] bytes) -> new String(bytes).strip();
            case OpenInRoot.Outcome.NotRegular(String kind) -> "not regular: " + kind;
            case OpenInRoot.Outcome.Missing m -> "missing";
            case OpenInRoot.Outcome.Failed(int errno, String message) -> "failed: " + message;
            case OpenInRoot.Outcome.Unsupported(String why) -> throw new AssertionError(why);
            case OpenInRoot.Outcome.Names n -> "names";
            case OpenInRoot.Outcome.Found f -> "found";
        });
        assertThat(seen).doesNotContain("4194304").contains("212992");
    }

    @Test
    void swappingInAFifoOrASymlinkUnderALogsTailNeitherHangsNorLeaks() throws Exception {
        Path file = setUp();
        HostRoot root = HostRoot.at(tree);
        assertThat(root.readTail(ATTRIBUTE, 1 << 20)).isEqualTo(Reading.of("212992\n"));
        List<String> seen = race(file, () -> switch (root.readTail(ATTRIBUTE, 1 << 20)) {
            case Reading.Present<String>(String v) -> v.strip();
            case Reading.Failed<String>(String path, String cause) -> "failed: " + cause;
            case Reading.Absent<String>(String why) -> "absent: " + why;
        });
        assertThat(seen).doesNotContain("4194304").contains("212992");
    }

    @Test
    void aDirectorySwappedForALinkOutOfTheTreeIsNeverListed() throws Exception {
        Path core = tree.resolve("proc/sys/net/core");
        Files.createDirectories(core);
        Files.writeString(core.resolve("rmem_max"), "212992\n");
        Files.writeString(outside.resolve("host_only"), "x\n");
        Path link = core.resolveSibling("core-link");
        Files.createSymbolicLink(link, outside);
        HostRoot root = HostRoot.at(tree);
        assertThat(root.listing("proc/sys/net/core")).isEqualTo(Reading.of(List.of("rmem_max")));
        AtomicBoolean stop = new AtomicBoolean();
        java.util.concurrent.atomic.AtomicInteger swaps = new java.util.concurrent.atomic.AtomicInteger();
        CompletableFuture<Integer> swapper = CompletableFuture.supplyAsync(() -> {
            while (!stop.get()) {
                assertThat(OpenInRoot.exchange(core, link)).isZero();
                swaps.incrementAndGet();
            }
            return swaps.get();
        }, OWN_THREAD);
        List<String> seen = new ArrayList<>();
        try {
            // listings overlap swaps: as many as there are reads, and on until the swapper has done as many
            for (int i = 0; i < READS || swaps.get() < READS; i++) seen.add(root.listing("proc/sys/net/core").describe());
        } finally {
            stop.set(true);
            assertThat(swapper.get(30, TimeUnit.SECONDS)).isPositive();
        }
        assertThat(seen).noneMatch(v -> v.contains("host_only")).contains("[rmem_max]");
    }

    @Test
    void theWalkWithoutOpenat2FollowsLinksInsideTheRootAsOpenat2Does() throws Exception {
        Path core = tree.resolve("proc/sys/net/core");
        Files.createDirectories(core);
        Files.writeString(core.resolve("rmem_max"), "212992\n");
        Files.createDirectories(tree.resolve("sys/class/net"));
        // a class link as sysfs has them (relative, through ..), and one written absolute as a live root has them
        Files.createSymbolicLink(tree.resolve("sys/class/net/core"), Path.of("../../../proc/sys/net/core"));
        Files.createSymbolicLink(tree.resolve("sys/class/net/abs"), Path.of("/proc/sys/net/core"));
        for (boolean walk : new boolean[]{false, true}) {
            for (String path : List.of("sys/class/net/core/rmem_max", "sys/class/net/abs/rmem_max")) {
                assertThat(OpenInRoot.read(tree, path, 4096, true, walk)).as(path + " walk=" + walk)
                        .matches(o -> o instanceof OpenInRoot.Outcome.Read(byte[] b) && new String(b).equals("212992\n"));
            }
            byte[] abs = "sys/class/net/abs/rmem_max".getBytes();
            assertThat(OpenInRoot.read(tree, abs, OpenInRoot.Confine.BENEATH, 4096, true, walk)).as("beneath walk=" + walk)
                    .matches(o -> o instanceof OpenInRoot.Outcome.Failed(int errno, String why) && errno == 18);
        }
    }
}
