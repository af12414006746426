package dev.railyard.cli;

import dev.railyard.model.RailyardException;
import dev.railyard.platform.HostRoot;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * How big `bench storage` may make its file: what the disk has free and how much memory the node has. A seam, so
 * tests can present a nearly full disk. (A run once left an 80 GB file behind that filled a disk.)
 */
interface StorageRoom {

    /**
     * Kept free beyond the file: filesystem metadata, and whatever else writes to the disk meanwhile. It grows with the
     * file, so a small test fits on a small disk; --margin overrides it.
     */
    long MARGIN_FLOOR = 16L << 20;
    long DEFAULT_CAP = 16L << 30;
    long DEFAULT_FLOOR = 64L << 20;

    /** Bytes this process may still write under {@code dir}. */
    long usableBytes(Path dir) throws IOException;

    /** The node's memory, when known. */
    OptionalLong memoryBytes();

    static StorageRoom live() {
        return new StorageRoom() {
            @Override
            public long usableBytes(Path dir) throws IOException {
                return Files.getFileStore(dir).getUsableSpace();
            }

            @Override
            public OptionalLong memoryBytes() {
                return HostRoot.live().read("proc/meminfo").optional().stream()
                        .flatMap(String::lines).filter(l -> l.startsWith("MemTotal:"))
                        .mapToLong(l -> Long.parseLong(l.replaceAll("\\D", "")) * 1024).findFirst();
            }
        };
    }

    /** The margin for a file of {@code size}: 5 %, at least {@value #MARGIN_FLOOR} bytes. */
    static long margin(long size) {
        return Math.max(MARGIN_FLOOR, size / 20);
    }

    /**
     * The size when none is given: as large as memory (so a --no-direct read cannot be served from the page cache),
     * but at most a quarter of the free space and {@value #DEFAULT_CAP} bytes (fio's --runtime stops most disks
     * first), and at least {@value #DEFAULT_FLOOR}.
     */
    static long defaultSize(long usable, OptionalLong memory) {
        long size = Math.min(DEFAULT_CAP, usable / 4);
        if (memory.isPresent()) size = Math.min(size, memory.getAsLong());
        return Math.max(DEFAULT_FLOOR, size >> 20 << 20);
    }

    /**
     * Refuses a size that, with its margin ({@link #margin(long)} unless {@code margin} is given), does not fit in
     * {@code usable} bytes; names the numbers and what fits.
     */
    static void requireRoom(Path dir, String option, long size, OptionalLong margin, long usable) {
        long kept = margin.orElse(margin(size));
        long needed = size + kept;
        if (needed <= usable) return;
        long fits = margin.isPresent() ? usable - kept : Math.max(0, Math.min(usable - MARGIN_FLOOR, usable * 20 / 21));
        throw new RailyardException.Usage(String.format(Locale.ROOT,
                "not enough free space in %s: %s %s needs %s with the %s margin, and %s is free", dir, option,
                sizeText(size), sizeText(needed), sizeText(kept), sizeText(usable)),
                fits >= 1L << 20 ? "give --size " + (fits >> 20) + "M or less, or a --dir on a disk with more room"
                        : "free space on this disk, or give a --dir on another one");
    }

    /** Whole G or M as --size takes them ("4G", "300M"). */
    static String sizeOption(long bytes) {
        return bytes % (1L << 30) == 0 ? (bytes >> 30) + "G" : (bytes >> 20) + "M";
    }

    static String sizeText(long bytes) {
        if (bytes >= 1L << 30) return String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30));
        return String.format(Locale.ROOT, "%.1f MiB", bytes / (double) (1L << 20));
    }
}
