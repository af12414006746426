package dev.railyard.nativelib;

import dev.railyard.nativelib.OpenInRoot.Outcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link OpenInRoot#read} gives a file's exact bytes at every size around its buffers (a page, the first read's
 * buffer, a 64 KiB chunk) and cuts at {@code maxBytes + 1}; and a small attribute costs the heap about its own size,
 * since the agent reads hundreds of them a second.
 */
class OpenInRootReadTest {

    @TempDir
    Path tree;

    private static byte[] pattern(int size) {
        byte[] b = new byte[size];
        for (int i = 0; i < size; i++) b[i] = (byte) ('a' + i % 23);
        return b;
    }

    private byte[] read(String name, int maxBytes) {
        Outcome o = OpenInRoot.read(tree, name, maxBytes, false);
        assertThat(o).isInstanceOf(Outcome.Read.class);
        return ((Outcome.Read) o).bytes();
    }

    @Test
    void everySizeAroundTheBuffersReadsExactly() throws Exception {
        for (int size : new int[]{0, 1, 4095, 4096, 4097, 4351, 4352, 4353, 8704, 65535, 65536, 65537, 70000, 200_001}) {
            byte[] want = pattern(size);
            Files.write(tree.resolve("f" + size), want);
            assertThat(read("f" + size, 1 << 20)).as("size %d", size).isEqualTo(want);
            assertThat(read("f" + size, size)).as("size %d at its own limit", size).isEqualTo(want);
            if (size > 0) {
                // one byte past the limit tells the caller the file is larger
                assertThat(read("f" + size, size - 1)).as("size %d past its limit", size).isEqualTo(want);
                int cut = size / 2;
                assertThat(read("f" + size, cut)).as("size %d cut at %d", size, cut)
                        .isEqualTo(Arrays.copyOf(want, cut + 1));
            }
        }
    }

    @Test
    void aProcfsFileThatReportsNoSizeIsReadToItsEnd() throws Exception {
        // procfs says size 0 for what it generates on read: the reader must go to the end, not trust the size
        byte[] want = Files.readAllBytes(Path.of("/proc/self/mountinfo"));
        assertThat(Files.size(Path.of("/proc/self/mountinfo"))).isZero();
        assertThat(((Outcome.Read) OpenInRoot.read(Path.of("/"), "proc/self/mountinfo", 1 << 20, true)).bytes())
                .isEqualTo(want);
    }

    @Test
    void aSmallAttributeAllocatesAboutItsOwnSize() throws Exception {
        Files.writeString(tree.resolve("rate"), "400\n");
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long id = Thread.currentThread().threadId();
        // the smallest of five rounds: the first calls of a method handle spin classes on the calling thread, and
        // that is the JVM warming up, not the read
        long perRead = Long.MAX_VALUE;
        for (int round = 0; round < 5; round++) {
            long before = threads.getThreadAllocatedBytes(id);
            for (int i = 0; i < 1000; i++) read("rate", 1 << 20);
            perRead = Math.min(perRead, (threads.getThreadAllocatedBytes(id) - before) / 1000);
        }
        assertThat(perRead).as("bytes allocated per read").isLessThan(4096);
    }
}
