package dev.railyard.nativelib;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * Opens and reads one file confined to a root, without a window between checking it and opening it: openat2 with
 * RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS (every symlink resolved as if the root were "/"), O_NONBLOCK (a FIFO
 * swapped in does not block the open) and O_NOFOLLOW (a symlink swapped in for the last name is refused), then the
 * type judged with statx on the descriptor that was opened. Where openat2 is missing (kernels before 5.6) each
 * directory is opened with O_PATH | O_NOFOLLOW in turn, so no symlink is followed on the way.
 */
public final class OpenInRoot {

    /** What reading gave. */
    public sealed interface Outcome {
        /** At most {@code maxBytes + 1} bytes, so a caller can tell a file past its limit. */
        record Read(byte[] bytes) implements Outcome {}

        /** Opened, and not a regular file: {@code kind} says what it is. Nothing was read from it. */
        record NotRegular(String kind) implements Outcome {}

        record Missing() implements Outcome {}

        /** The call failed: {@code errno} and the C library's words for it. */
        record Failed(int errno, String message) implements Outcome {}

        /** No native access here (not Linux, or native access refused): the caller reads the plain way. */
        record Unsupported(String why) implements Outcome {}
    }

    private static final int ENOENT = 2;
    private static final int ENOSYS = 38;
    private static final int ELOOP = 40;
    private static final long SYS_OPENAT2 = 437; // the same number on every architecture (added after the unification)
    private static final long RESOLVE_NO_MAGICLINKS = 0x02;
    private static final long RESOLVE_IN_ROOT = 0x10;
    private static final int O_NONBLOCK = 0x800;
    private static final int O_CLOEXEC = 0x80000;
    private static final int O_PATH = 0x200000;
    private static final boolean ARM = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT).contains("aarch64");
    private static final int O_NOFOLLOW = ARM ? 0x8000 : 0x20000;
    private static final int O_DIRECTORY = ARM ? 0x4000 : 0x10000;
    private static final int AT_EMPTY_PATH = 0x1000;
    private static final int STATX_TYPE = 1;
    private static final int STX_MODE_OFFSET = 0x1c;
    private static final int RENAME_EXCHANGE = 2;
    private static final int AT_FDCWD = -100;

    private record Calls(MethodHandle openat, MethodHandle openat2, MethodHandle read, MethodHandle close,
                         MethodHandle statx, MethodHandle strerror, MethodHandle renameat2, VarHandle errno,
                         StructLayout state) {}

    private static final Object LOCK = new Object();
    private static volatile Calls calls;
    private static volatile String unsupported;
    /** Set when the kernel answered ENOSYS: every later read walks instead of asking again. */
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
        Calls c = calls();
        if (c == null) return new Outcome.Unsupported(unsupported);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(c.state());
            int rootFd = (int) c.openat().invokeExact(state, AT_FDCWD, arena.allocateFrom(root.toString()),
                    O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
            if (rootFd < 0) return failure(c, state);
            try {
                int flags = O_NONBLOCK | O_CLOEXEC | (followLast ? 0 : O_NOFOLLOW);
                int fd = -1;
                if (!walk && !noOpenat2) {
                    MemorySegment how = arena.allocate(24, 8);
                    how.set(ValueLayout.JAVA_LONG, 0, flags);
                    how.set(ValueLayout.JAVA_LONG, 16, RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS);
                    fd = (int) (long) c.openat2().invokeExact(state, SYS_OPENAT2, (long) rootFd,
                            arena.allocateFrom(relative), how, 24L);
                    if (fd < 0 && errno(c, state) == ENOSYS) noOpenat2 = true;
                    else if (fd < 0) return failure(c, state);
                }
                if (fd < 0) {
                    Walked walked = walk(c, arena, state, rootFd, relative, flags);
                    if (walked.failure() != null) return walked.failure();
                    fd = walked.fd();
                }
                try {
                    return readOpened(c, arena, state, fd, maxBytes);
                } finally {
                    int ignored = (int) c.close().invokeExact(fd);
                }
            } finally {
                int ignored = (int) c.close().invokeExact(rootFd);
            }
        } catch (Throwable t) {
            return new Outcome.Failed(0, String.valueOf(t.getMessage()));
        }
    }

    /** The walk's end: an opened descriptor, or why there is none. */
    private record Walked(int fd, Outcome failure) {}

    private static Walked walk(Calls c, Arena arena, MemorySegment state, int rootFd, String relative, int flags)
            throws Throwable {
        String[] parts = Arrays.stream(relative.split("/")).filter(p -> !p.isEmpty() && !p.equals(".")).toArray(String[]::new);
        if (parts.length == 0 || Arrays.asList(parts).contains("..")) {
            return new Walked(-1, new Outcome.Failed(0, "not a path below the root"));
        }
        int dir = rootFd;
        try {
            for (int i = 0; i < parts.length - 1; i++) {
                int next = (int) c.openat().invokeExact(state, dir, arena.allocateFrom(parts[i]),
                        O_PATH | O_NOFOLLOW | O_DIRECTORY | O_CLOEXEC, 0);
                if (next < 0) return new Walked(-1, failure(c, state));
                if (dir != rootFd) {
                    int ignored = (int) c.close().invokeExact(dir);
                }
                dir = next;
            }
            int fd = (int) c.openat().invokeExact(state, dir, arena.allocateFrom(parts[parts.length - 1]), flags, 0);
            return fd < 0 ? new Walked(-1, failure(c, state)) : new Walked(fd, null);
        } finally {
            if (dir != rootFd) {
                int ignored = (int) c.close().invokeExact(dir);
            }
        }
    }

    private static Outcome readOpened(Calls c, Arena arena, MemorySegment state, int fd, int maxBytes) throws Throwable {
        MemorySegment stx = arena.allocate(256, 8);
        int rc = (int) c.statx().invokeExact(state, fd, arena.allocateFrom(""), AT_EMPTY_PATH, STATX_TYPE, stx);
        if (rc != 0) return failure(c, state);
        int mode = Short.toUnsignedInt(stx.get(ValueLayout.JAVA_SHORT, STX_MODE_OFFSET)) & 0170000;
        if (mode != 0100000) return new Outcome.NotRegular(kind(mode));
        int chunk = 64 * 1024;
        MemorySegment buf = arena.allocate(chunk);
        byte[] out = new byte[Math.min(maxBytes + 1, chunk)];
        int size = 0;
        while (size <= maxBytes) {
            long want = Math.min(chunk, maxBytes + 1L - size);
            long n = (long) c.read().invokeExact(state, fd, buf, want);
            if (n < 0) return failure(c, state);
            if (n == 0) break;
            if (size + n > out.length) out = Arrays.copyOf(out, (int) Math.min(maxBytes + 1L, Math.max(out.length * 2L, size + n)));
            MemorySegment.copy(buf, ValueLayout.JAVA_BYTE, 0, out, size, (int) n);
            size += (int) n;
        }
        return new Outcome.Read(Arrays.copyOf(out, size));
    }

    private static String kind(int mode) {
        return switch (mode) {
            case 0040000 -> "a directory";
            case 0010000 -> "a FIFO";
            case 0140000 -> "a socket";
            case 0020000 -> "a character device";
            case 0060000 -> "a block device";
            case 0120000 -> "a symlink";
            default -> "not a regular file";
        };
    }

    private static int errno(Calls c, MemorySegment state) {
        return (int) c.errno().get(state, 0L);
    }

    private static Outcome failure(Calls c, MemorySegment state) throws Throwable {
        int e = errno(c, state);
        if (e == ENOENT) return new Outcome.Missing();
        if (e == ELOOP) return new Outcome.Failed(e, "a symlink where a file or directory was expected: not followed");
        MemorySegment text = (MemorySegment) c.strerror().invokeExact(e);
        return new Outcome.Failed(e, text.reinterpret(256).getString(0));
    }

    /**
     * Swaps two names atomically (renameat2 RENAME_EXCHANGE): what tests use to change a file's type under a reader,
     * as a racing writer would. Returns 0, or the errno.
     */
    public static int exchange(Path a, Path b) {
        Calls c = calls();
        if (c == null) throw new UnsupportedOperationException(unsupported);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(c.state());
            int rc = (int) c.renameat2().invokeExact(state, AT_FDCWD, arena.allocateFrom(a.toString()), AT_FDCWD,
                    arena.allocateFrom(b.toString()), RENAME_EXCHANGE);
            return rc == 0 ? 0 : errno(c, state);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private static Calls calls() {
        Calls c = calls;
        if (c != null || unsupported != null) return c;
        synchronized (LOCK) {
            if (calls != null || unsupported != null) return calls;
            try {
                if (!System.getProperty("os.name", "").equals("Linux")) throw new UnsupportedOperationException("not Linux");
                Linker linker = Linker.nativeLinker();
                SymbolLookup libc = linker.defaultLookup();
                Linker.Option errno = Linker.Option.captureCallState("errno");
                StructLayout state = Linker.Option.captureStateLayout();
                var I = ValueLayout.JAVA_INT;
                var L = ValueLayout.JAVA_LONG;
                var P = ValueLayout.ADDRESS;
                calls = new Calls(
                        linker.downcallHandle(libc.findOrThrow("openat"), FunctionDescriptor.of(I, I, P, I, I),
                                errno, Linker.Option.firstVariadicArg(3)),
                        linker.downcallHandle(libc.findOrThrow("syscall"), FunctionDescriptor.of(L, L, L, P, P, L),
                                errno, Linker.Option.firstVariadicArg(1)),
                        linker.downcallHandle(libc.findOrThrow("read"), FunctionDescriptor.of(L, I, P, L), errno),
                        linker.downcallHandle(libc.findOrThrow("close"), FunctionDescriptor.of(I, I)),
                        linker.downcallHandle(libc.findOrThrow("statx"), FunctionDescriptor.of(I, I, P, I, I, P), errno),
                        linker.downcallHandle(libc.findOrThrow("strerror"), FunctionDescriptor.of(P, I)),
                        linker.downcallHandle(libc.findOrThrow("renameat2"), FunctionDescriptor.of(I, I, P, I, P, I), errno),
                        state.varHandle(java.lang.foreign.MemoryLayout.PathElement.groupElement("errno")), state);
            } catch (RuntimeException | Error e) {
                unsupported = "native file access unavailable: " + e.getMessage();
            }
            return calls;
        }
    }
}
