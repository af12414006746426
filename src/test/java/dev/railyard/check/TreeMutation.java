package dev.railyard.check;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

/**
 * One seeded mutation of one file (or symlink) in a node tree, undone afterwards so the next mutant starts from
 * the real tree again. The kinds are the ones ReaderMutationFuzzTest's mutants use.
 */
final class TreeMutation {

    enum Kind {
        RANDOM_BYTES, EMPTY, HUGE, NON_UTF8, OUT_OF_RANGE, NOT_AVAILABLE, DELETE, DIRECTORY, FIFO, SYMLINK_LOOP,
        DANGLING, ESCAPING_SYMLINK
    }

    /** Text a reader must never pass on: a value read through a link out of the root would carry it. */
    static final String SENTINEL = "railyard-outside-the-root";
    private static final List<String> OUT_OF_RANGE = List.of("4294976296", "-1", "99999999999999999999999",
            "-2147483649", "4294967312", "0x1ffffffffffffffff", "1e309", "-0");

    private final Path tree;
    private final Path outside;
    private final String relative;
    private final Kind kind;
    private final byte[] content;
    private final Path linkTarget;

    private TreeMutation(Path tree, Path outside, String relative, Kind kind) throws IOException {
        this.tree = tree;
        this.outside = outside;
        this.relative = relative;
        this.kind = kind;
        Path p = tree.resolve(relative);
        this.linkTarget = Files.isSymbolicLink(p) ? Files.readSymbolicLink(p) : null;
        this.content = linkTarget == null ? Files.readAllBytes(p) : null;
    }

    /** Every file and symlink of the tree, root-relative and sorted, so a seed always picks the same ones. */
    static List<String> candidates(Path tree) throws IOException {
        try (Stream<Path> all = Files.walk(tree)) {
            return all.filter(p -> Files.isSymbolicLink(p) || Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS))
                    .map(p -> tree.relativize(p).toString()).sorted().toList();
        }
    }

    static TreeMutation pick(Path tree, Path outside, List<String> candidates, Random random) throws IOException {
        String relative = candidates.get(random.nextInt(candidates.size()));
        Kind kind = Kind.values()[random.nextInt(Kind.values().length)];
        return new TreeMutation(tree, outside, relative, kind);
    }

    String relative() {
        return relative;
    }

    Kind kind() {
        return kind;
    }

    Path path() {
        return tree.resolve(relative);
    }

    @Override
    public String toString() {
        return kind + " " + relative;
    }

    void apply(Random random) throws IOException, InterruptedException {
        Path p = path();
        String original = content == null ? "" : new String(content, StandardCharsets.UTF_8);
        switch (kind) {
            case RANDOM_BYTES -> {
                byte[] b = new byte[1 + random.nextInt(64)];
                random.nextBytes(b);
                replace(p, b);
            }
            case EMPTY -> replace(p, new byte[0]);
            case HUGE -> replace(p, ("9".repeat(1 << 20) + "9".repeat(16) + "\n").getBytes(StandardCharsets.US_ASCII));
            case NON_UTF8 -> replace(p, concat(new byte[]{(byte) 0xff, (byte) 0xfe, (byte) 0xc3},
                    original.isEmpty() ? "4: ACTIVE".getBytes(StandardCharsets.UTF_8) : content));
            case OUT_OF_RANGE -> replace(p, (OUT_OF_RANGE.get(random.nextInt(OUT_OF_RANGE.size())) + "\n")
                    .getBytes(StandardCharsets.US_ASCII));
            case NOT_AVAILABLE -> replace(p, "N/A\n".getBytes(StandardCharsets.US_ASCII));
            case DELETE -> Files.delete(p);
            case DIRECTORY -> {
                Files.delete(p);
                Files.createDirectory(p);
            }
            case FIFO -> {
                Files.delete(p);
                Process mk = new ProcessBuilder(List.of("mkfifo", p.toString())).redirectErrorStream(true).start();
                if (mk.waitFor() != 0) throw new IOException("mkfifo " + p + " failed");
            }
            case SYMLINK_LOOP -> {
                Files.delete(p);
                Files.createSymbolicLink(p, p.getFileName());
            }
            case DANGLING -> {
                Files.delete(p);
                Files.createSymbolicLink(p, Path.of("no-such-" + p.getFileName()));
            }
            case ESCAPING_SYMLINK -> {
                // a copy of what the link replaces, every file holding the sentinel: any read through it shows
                Path copy = outside.resolve(relative);
                deleteRecursively(copy);
                Files.createDirectories(copy.getParent());
                copyWithSentinel(p, copy);
                Files.delete(p);
                Files.createSymbolicLink(p, random.nextBoolean() ? copy.toAbsolutePath()
                        : p.getParent().toAbsolutePath().relativize(copy.toAbsolutePath()));
            }
        }
    }

    /** Puts the real file or link back. */
    void undo() throws IOException {
        Path p = path();
        deleteRecursively(p);
        if (linkTarget != null) Files.createSymbolicLink(p, linkTarget);
        else Files.write(p, content);
    }

    /**
     * A reader stuck opening the FIFO (the bug this guards against) is released by a writer opening it; a FIFO
     * with no reader would block this open instead, so it runs on a daemon thread and only when a read hung.
     */
    static void unblockReaders(Path fifo) {
        Thread t = Thread.ofPlatform().daemon().start(() -> {
            try (FileOutputStream ignored = new FileOutputStream(fifo.toFile())) {
                // opening is enough: the reader then sees end of file
            } catch (IOException e) {
                // nothing was waiting on it after all
            }
        });
        try {
            t.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void replace(Path p, byte[] bytes) throws IOException {
        Files.delete(p);
        Files.write(p, bytes);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static void copyWithSentinel(Path from, Path to) throws IOException {
        if (Files.isDirectory(from)) {
            Files.createDirectories(to);
            try (Stream<Path> children = Files.list(from)) {
                for (Path c : children.toList()) {
                    if (Files.isDirectory(c, LinkOption.NOFOLLOW_LINKS) || Files.isRegularFile(c, LinkOption.NOFOLLOW_LINKS)) {
                        copyWithSentinel(c, to.resolve(c.getFileName().toString()));
                    }
                }
            }
        } else {
            Files.writeString(to, SENTINEL + "\n");
        }
    }

    static void deleteRecursively(Path p) throws IOException {
        if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) return;
        if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
            try (Stream<Path> all = Files.walk(p)) {
                for (Path x : all.sorted(Comparator.reverseOrder()).toList()) Files.delete(x);
            }
        } else {
            Files.delete(p);
        }
    }

    static void uncheckedDelete(Path p) {
        try {
            deleteRecursively(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
