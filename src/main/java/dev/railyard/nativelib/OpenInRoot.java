package dev.railyard.nativelib;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Opens files and directories confined to a root, without a window between checking a name and opening it: openat2
 * with RESOLVE_IN_ROOT (every symlink resolved as if the root were "/") or RESOLVE_BENEATH (a link leading out is
 * refused), and RESOLVE_NO_MAGICLINKS; O_NONBLOCK (a FIFO swapped in does not block the open) and O_NOFOLLOW where a
 * symlink as the last name is refused; then the type judged with statx on the descriptor that was opened. Where
 * openat2 is missing (kernels before 5.6) {@link RootWalk} resolves the same way one name at a time. Paths are
 * bytes: a name that is not UTF-8 is read as the kernel has it.
 */
public final class OpenInRoot {

    /** What an operation gave. */
    public sealed interface Outcome {
        /** At most {@code maxBytes + 1} bytes, so a caller can tell a file past its limit (a link's target, a path). */
        record Read(byte[] bytes) implements Outcome {}

        /** Opened, and not what was asked for: {@code kind} says what it is. Nothing was read from it. */
        record NotRegular(String kind) implements Outcome {}

        /** A directory's names, "." and ".." left out, as raw bytes. */
        record Names(List<byte[]> names) implements Outcome {}

        /** Something is there: {@code kind} as {@link NotRegular} words it ("a directory", "a regular file"). */
        record Found(String kind) implements Outcome {}

        record Missing() implements Outcome {}

        /** The call failed: {@code errno} and the C library's words for it (EXDEV: a link leading out of the root). */
        record Failed(int errno, String message) implements Outcome {}

        /** No native access here (not Linux, or native access refused): the caller reads the plain way. */
        record Unsupported(String why) implements Outcome {}
    }

    /** How symlinks inside the tree resolve. */
    public enum Confine {
        /** As if the root were "/": a live root, whose absolute links are meant from "/". */
        IN_ROOT,
        /** A link that is absolute or climbs above the root is refused: a captured tree from another machine. */
        BENEATH
    }

    private static final long SYS_OPENAT2 = 437; // the same number on every architecture (added after the unification)
    private static final long RESOLVE_NO_MAGICLINKS = 0x02;
    private static final long RESOLVE_BENEATH = 0x08;
    private static final long RESOLVE_IN_ROOT = 0x10;
    private static final int RENAME_EXCHANGE = 2;
    private static final int TAIL_CHUNK = 64 * 1024;
    /** A page and a bit: a whole sysfs attribute in one read, and the end of the file seen by the next. */
    private static final long FIRST_READ = 4096 + 256;
    private static final long READ_CHUNK = 64 * 1024;

    /** Set when the kernel answered ENOSYS: every later open walks instead of asking again. */
    private static volatile boolean noOpenat2;

    private OpenInRoot() {
    }

    /**
     * Reads {@code relative} (no leading "/") under {@code root}, at most {@code maxBytes + 1} bytes.
     * {@code followLast}: whether a symlink as the last name is followed (inside the root) or refused.
     */
    public static Outcome read(Path root, String relative, int maxBytes, boolean followLast) {
        return read(root, relative, maxBytes, followLast, false);
    }

    /** As {@link #read}; {@code walk} forces the path-walking fallback, as on a kernel without openat2. */
    public static Outcome read(Path root, String relative, int maxBytes, boolean followLast, boolean walk) {
        return read(root, utf8(relative), Confine.IN_ROOT, maxBytes, followLast, walk);
    }

    public static Outcome read(Path root, byte[] relative, Confine confine, int maxBytes, boolean followLast, boolean walk) {
        return withOpened(root, relative, confine, fileFlags(followLast), followLast, walk, (c, arena, state, fd) -> {
            int type = c.type(arena, state, fd);
            if (type < 0) return failure(c, state);
            if (type != LibcFiles.S_IFREG) return new Outcome.NotRegular(LibcFiles.kind(type));
            return readAll(c, arena, state, fd, maxBytes);
        });
    }

    /**
     * The newest {@code maxBytes} of a regular file, from the first whole line after the cut (the whole file when it
     * is no larger). For logs, whose newest lines matter most.
     */
    public static Outcome tail(Path root, byte[] relative, Confine confine, int maxBytes, boolean followLast, boolean walk) {
        return withOpened(root, relative, confine, fileFlags(followLast), followLast, walk, (c, arena, state, fd) -> {
            int type = c.type(arena, state, fd);
            if (type < 0) return failure(c, state);
            if (type != LibcFiles.S_IFREG) return new Outcome.NotRegular(LibcFiles.kind(type));
            long size = c.size(arena, state, fd);
            if (size < 0) return failure(c, state);
            if (size <= maxBytes) {
                Outcome whole = readAll(c, arena, state, fd, maxBytes);
                if (!(whole instanceof Outcome.Read(byte[] b)) || b.length <= maxBytes) return whole;
                return new Outcome.Read(fromWholeLine(Arrays.copyOfRange(b, b.length - maxBytes, b.length)));
            }
            MemorySegment buf = arena.allocate(TAIL_CHUNK);
            byte[] out = new byte[maxBytes];
            int got = 0;
            long at = size - maxBytes;
            while (got < maxBytes) {
                long n = (long) c.pread().invokeExact(state, fd, buf, (long) Math.min(TAIL_CHUNK, maxBytes - got), at + got);
                if (n < 0) return failure(c, state);
                if (n == 0) break;
                MemorySegment.copy(buf, ValueLayout.JAVA_BYTE, 0, out, got, (int) n);
                got += (int) n;
            }
            return new Outcome.Read(fromWholeLine(Arrays.copyOf(out, got)));
        });
    }

    /** The names in a directory; a symlink to a directory inside the root is followed. */
    public static Outcome list(Path root, byte[] relative, Confine confine, boolean walk) {
        int flags = LibcFiles.O_DIRECTORY | LibcFiles.O_NONBLOCK | LibcFiles.O_CLOEXEC;
        return withOpened(root, relative, confine, flags, true, walk, (c, arena, state, fd) -> {
            MemorySegment dir = (MemorySegment) c.fdopendir().invokeExact(state, fd);
            if (dir.equals(MemorySegment.NULL)) return failure(c, state);
            List<byte[]> names = new ArrayList<>();
            try {
                while (true) {
                    MemorySegment entry = (MemorySegment) c.readdir().invokeExact(state, dir);
                    if (entry.equals(MemorySegment.NULL)) break;
                    MemorySegment name = entry.reinterpret(LibcFiles.D_NAME_OFFSET + 256).asSlice(LibcFiles.D_NAME_OFFSET);
                    byte[] bytes = name.getString(0, StandardCharsets.ISO_8859_1).getBytes(StandardCharsets.ISO_8859_1);
                    if (Arrays.equals(bytes, new byte[]{'.'}) || Arrays.equals(bytes, new byte[]{'.', '.'})) continue;
                    names.add(bytes);
                }
            } finally {
                int ignored = (int) c.closedir().invokeExact(dir);
            }
            return new Outcome.Names(names);
        }, true);
    }

    /** What is at {@code relative}, following a last symlink inside the root: {@link Outcome.Found} or why not. */
    public static Outcome find(Path root, byte[] relative, Confine confine, boolean walk) {
        return withOpened(root, relative, confine, LibcFiles.O_PATH | LibcFiles.O_CLOEXEC, true, walk,
                (c, arena, state, fd) -> {
                    int type = c.type(arena, state, fd);
                    return type < 0 ? failure(c, state) : new Outcome.Found(LibcFiles.kind(type));
                });
    }

    /**
     * The real path of {@code relative} below the root, symlinks resolved inside it, as bytes without a leading "/"
     * (empty for the root itself); what the kernel says the opened descriptor is.
     */
    public static Outcome realPath(Path root, byte[] relative, Confine confine, boolean walk) {
        return withOpened(root, relative, confine, LibcFiles.O_PATH | LibcFiles.O_CLOEXEC, true, walk,
                (c, arena, state, fd) -> {
                    byte[] at = RootWalk.readLink(c, arena, state, LibcFiles.AT_FDCWD, "/proc/self/fd/" + fd);
                    if (at == null) return failure(c, state);
                    byte[] base = root.toRealPath().toString().getBytes(StandardCharsets.UTF_8);
                    if (base.length == 1) return new Outcome.Read(Arrays.copyOfRange(at, 1, at.length));
                    if (Arrays.equals(at, base)) return new Outcome.Read(new byte[0]);
                    if (at.length <= base.length + 1 || !Arrays.equals(Arrays.copyOf(at, base.length), base) || at[base.length] != '/') {
                        return new Outcome.Failed(LibcFiles.EXDEV, "not below the root: " + new String(at, StandardCharsets.UTF_8));
                    }
                    return new Outcome.Read(Arrays.copyOfRange(at, base.length + 1, at.length));
                });
    }

    /** The target of the symlink {@code relative}, as written; its directory resolved inside the root. */
    public static Outcome readLink(Path root, byte[] relative, Confine confine, boolean walk) {
        List<byte[]> names = RootWalk.names(relative);
        if (names.isEmpty()) return new Outcome.NotRegular("a directory");
        byte[] last = names.getLast();
        byte[] parent = parentOf(relative);
        return withOpened(root, parent, confine, LibcFiles.O_PATH | LibcFiles.O_DIRECTORY | LibcFiles.O_CLOEXEC, true, walk,
                (c, arena, state, dir) -> {
                    byte[] target = RootWalk.readLink(c, arena, state, dir, last);
                    if (target != null) return new Outcome.Read(target);
                    int e = c.errno(state);
                    return e == LibcFiles.EINVAL ? new Outcome.NotRegular("not a symlink") : failure(e, c);
                });
    }

    /** What to do with a descriptor opened inside the root; it is closed afterwards. */
    @FunctionalInterface
    private interface WithFd {
        Outcome apply(LibcFiles c, Arena arena, MemorySegment state, int fd) throws Throwable;
    }

    private static Outcome withOpened(Path root, byte[] relative, Confine confine, int flags, boolean followLast,
                                      boolean walk, WithFd use) {
        return withOpened(root, relative, confine, flags, followLast, walk, use, false);
    }

    /** {@code consumes}: {@code use} takes the descriptor over (fdopendir) and closes it itself. */
    private static Outcome withOpened(Path root, byte[] relative, Confine confine, int flags, boolean followLast,
                                      boolean walk, WithFd use, boolean consumes) {
        LibcFiles c = LibcFiles.get();
        if (c == null) return new Outcome.Unsupported(LibcFiles.unsupported());
        try (Arena arena = CallArena.open()) {
            MemorySegment state = arena.allocate(c.state());
            int rootFd = (int) c.openat().invokeExact(state, LibcFiles.AT_FDCWD, arena.allocateFrom(root.toString()),
                    LibcFiles.O_PATH | LibcFiles.O_DIRECTORY | LibcFiles.O_CLOEXEC, 0);
            if (rootFd < 0) return failure(c, state);
            try {
                int openFlags = flags | (followLast ? 0 : LibcFiles.O_NOFOLLOW);
                byte[] path = RootWalk.names(relative).isEmpty() ? new byte[]{'.'} : relative;
                int fd = -1;
                if (!walk && !noOpenat2) {
                    MemorySegment how = arena.allocate(24, 8);
                    how.set(ValueLayout.JAVA_LONG, 0, openFlags);
                    how.set(ValueLayout.JAVA_LONG, 16, RESOLVE_NO_MAGICLINKS
                            | (confine == Confine.BENEATH ? RESOLVE_BENEATH : RESOLVE_IN_ROOT));
                    fd = (int) (long) c.openat2().invokeExact(state, SYS_OPENAT2, (long) rootFd,
                            arena.allocateFrom(ValueLayout.JAVA_BYTE, RootWalk.cstring(path)), how, 24L);
                    if (fd < 0 && c.errno(state) == LibcFiles.ENOSYS) noOpenat2 = true;
                    else if (fd < 0) return failure(c, state);
                }
                if (fd < 0) {
                    RootWalk.Walked walked = RootWalk.open(c, arena, state, rootFd, path, openFlags, followLast,
                            confine == Confine.BENEATH);
                    if (!walked.ok()) return failure(walked.errno(), walked.why());
                    fd = walked.fd();
                }
                try {
                    return use.apply(c, arena, state, fd);
                } finally {
                    if (!consumes) c.closeQuietly(fd);
                }
            } finally {
                c.closeQuietly(rootFd);
            }
        } catch (Throwable t) {
            return new Outcome.Failed(0, String.valueOf(t.getMessage()));
        }
    }

    private static int fileFlags(boolean followLast) {
        return LibcFiles.O_NONBLOCK | LibcFiles.O_CLOEXEC | (followLast ? 0 : LibcFiles.O_NOFOLLOW);
    }

    /**
     * The file to its end, at most {@code maxBytes + 1} bytes. A sysfs or procfs attribute is at most a page and
     * comes whole from the first read, the next one seeing the end: the agent reads hundreds a second, so the first
     * buffer is a page and a bit (not a 64 KiB one, zeroed and copied per read) and the bytes go straight into an
     * array of their exact size. A larger file (a saved log, nvidia-smi's XML) goes on in 64 KiB reads.
     */
    private static Outcome readAll(LibcFiles c, Arena arena, MemorySegment state, int fd, int maxBytes) throws Throwable {
        long limit = maxBytes + 1L;
        MemorySegment buf = arena.allocate(Math.min(limit, FIRST_READ));
        byte[] out = null;
        int size = 0;
        while (size < limit) {
            long n = (long) c.read().invokeExact(state, fd, buf, Math.min(buf.byteSize(), limit - size));
            if (n < 0) return failure(c, state);
            if (n == 0) break;
            if (out == null) {
                out = new byte[(int) n];
            } else if (size + n > out.length) {
                out = Arrays.copyOf(out, (int) Math.min(limit, Math.max(out.length * 2L, size + n)));
            }
            MemorySegment.copy(buf, ValueLayout.JAVA_BYTE, 0, out, size, (int) n);
            size += (int) n;
            // the first buffer came back full: more than an attribute, so go on in large reads
            if (n == buf.byteSize() && buf.byteSize() < READ_CHUNK && size < limit) {
                buf = arena.allocate(Math.min(limit - size, READ_CHUNK));
            }
        }
        if (out == null) return new Outcome.Read(new byte[0]);
        return new Outcome.Read(out.length == size ? out : Arrays.copyOf(out, size));
    }

    private static byte[] fromWholeLine(byte[] bytes) {
        int start = 0;
        while (start < bytes.length && bytes[start] != '\n') start++;
        return Arrays.copyOfRange(bytes, Math.min(bytes.length, start + 1), bytes.length);
    }

    private static byte[] parentOf(byte[] relative) {
        int end = relative.length;
        while (end > 0 && relative[end - 1] == '/') end--;
        int slash = end - 1;
        while (slash >= 0 && relative[slash] != '/') slash--;
        return slash <= 0 ? new byte[]{'.'} : Arrays.copyOf(relative, slash);
    }

    private static Outcome failure(LibcFiles c, MemorySegment state) throws Throwable {
        int e = c.errno(state);
        return failure(e, c.message(e));
    }

    private static Outcome failure(int e, LibcFiles c) throws Throwable {
        return failure(e, c.message(e));
    }

    private static Outcome failure(int e, String message) {
        if (e == LibcFiles.ENOENT) return new Outcome.Missing();
        if (e == LibcFiles.ELOOP && !message.startsWith("symlink loop")) {
            return new Outcome.Failed(e, "a symlink where a file or directory was expected: not followed");
        }
        if (e == LibcFiles.EXDEV && !message.contains("root")) {
            return new Outcome.Failed(e, "symlink points outside the root");
        }
        return new Outcome.Failed(e, message);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Swaps two names atomically (renameat2 RENAME_EXCHANGE): what tests use to change a file's type under a reader,
     * as a racing writer would. Returns 0, or the errno.
     */
    public static int exchange(Path a, Path b) {
        LibcFiles c = LibcFiles.get();
        if (c == null) throw new UnsupportedOperationException(LibcFiles.unsupported());
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(c.state());
            int rc = (int) c.renameat2().invokeExact(state, LibcFiles.AT_FDCWD, arena.allocateFrom(a.toString()),
                    LibcFiles.AT_FDCWD, arena.allocateFrom(b.toString()), RENAME_EXCHANGE);
            return rc == 0 ? 0 : c.errno(state);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}
