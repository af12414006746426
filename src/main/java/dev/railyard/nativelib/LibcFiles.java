package dev.railyard.nativelib;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.Locale;

/** The C library's file calls that {@link OpenInRoot} makes, bound once; every call that sets errno captures it. */
record LibcFiles(MethodHandle openat, MethodHandle openat2, MethodHandle read, MethodHandle pread, MethodHandle close,
                 MethodHandle statx, MethodHandle strerror, MethodHandle renameat2, MethodHandle readlinkat,
                 MethodHandle fdopendir, MethodHandle readdir, MethodHandle closedir, VarHandle errno,
                 StructLayout state) {

    static final int ENOENT = 2;
    static final int EXDEV = 18;
    static final int ENOTDIR = 20;
    static final int EINVAL = 22;
    static final int ENOSYS = 38;
    static final int ELOOP = 40;
    static final int O_NONBLOCK = 0x800;
    static final int O_CLOEXEC = 0x80000;
    static final int O_PATH = 0x200000;
    private static final boolean ARM = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT).contains("aarch64");
    static final int O_NOFOLLOW = ARM ? 0x8000 : 0x20000;
    static final int O_DIRECTORY = ARM ? 0x4000 : 0x10000;
    static final int AT_FDCWD = -100;
    static final int AT_EMPTY_PATH = 0x1000;
    static final int STATX_TYPE = 1;
    static final int STATX_SIZE = 0x200;
    static final int STX_MODE_OFFSET = 0x1c;
    static final int STX_SIZE_OFFSET = 0x28;
    static final int S_IFMT = 0170000;
    static final int S_IFDIR = 0040000;
    static final int S_IFREG = 0100000;
    static final int S_IFLNK = 0120000;
    /** struct dirent's d_name in glibc and musl on 64-bit Linux: after d_ino, d_off, d_reclen and d_type. */
    static final int D_NAME_OFFSET = 19;

    private static final Object LOCK = new Object();
    private static volatile LibcFiles bound;
    private static volatile String unsupported;

    /** Null where there is no native access; {@link #unsupported()} then says why. */
    static LibcFiles get() {
        LibcFiles c = bound;
        if (c != null || unsupported != null) return c;
        synchronized (LOCK) {
            if (bound != null || unsupported != null) return bound;
            try {
                if (!System.getProperty("os.name", "").equals("Linux")) throw new UnsupportedOperationException("not Linux");
                bound = bind();
            } catch (RuntimeException | Error e) {
                unsupported = "native file access unavailable: " + e.getMessage();
            }
            return bound;
        }
    }

    static String unsupported() {
        return unsupported;
    }

    private static LibcFiles bind() {
        Linker linker = Linker.nativeLinker();
        SymbolLookup libc = linker.defaultLookup();
        Linker.Option errno = Linker.Option.captureCallState("errno");
        StructLayout state = Linker.Option.captureStateLayout();
        var I = ValueLayout.JAVA_INT;
        var L = ValueLayout.JAVA_LONG;
        var P = ValueLayout.ADDRESS;
        return new LibcFiles(
                linker.downcallHandle(libc.findOrThrow("openat"), FunctionDescriptor.of(I, I, P, I, I),
                        errno, Linker.Option.firstVariadicArg(3)),
                linker.downcallHandle(libc.findOrThrow("syscall"), FunctionDescriptor.of(L, L, L, P, P, L),
                        errno, Linker.Option.firstVariadicArg(1)),
                linker.downcallHandle(libc.findOrThrow("read"), FunctionDescriptor.of(L, I, P, L), errno),
                linker.downcallHandle(libc.findOrThrow("pread"), FunctionDescriptor.of(L, I, P, L, L), errno),
                linker.downcallHandle(libc.findOrThrow("close"), FunctionDescriptor.of(I, I)),
                linker.downcallHandle(libc.findOrThrow("statx"), FunctionDescriptor.of(I, I, P, I, I, P), errno),
                linker.downcallHandle(libc.findOrThrow("strerror"), FunctionDescriptor.of(P, I)),
                linker.downcallHandle(libc.findOrThrow("renameat2"), FunctionDescriptor.of(I, I, P, I, P, I), errno),
                linker.downcallHandle(libc.findOrThrow("readlinkat"), FunctionDescriptor.of(L, I, P, P, L), errno),
                linker.downcallHandle(libc.findOrThrow("fdopendir"), FunctionDescriptor.of(P, I), errno),
                linker.downcallHandle(libc.findOrThrow("readdir"), FunctionDescriptor.of(P, P), errno),
                linker.downcallHandle(libc.findOrThrow("closedir"), FunctionDescriptor.of(I, P)),
                state.varHandle(MemoryLayout.PathElement.groupElement("errno")), state);
    }

    int errno(MemorySegment state) {
        return (int) errno().get(state, 0L);
    }

    String message(int errno) throws Throwable {
        MemorySegment text = (MemorySegment) strerror().invokeExact(errno);
        return text.reinterpret(256).getString(0);
    }

    void closeQuietly(int fd) throws Throwable {
        int ignored = (int) close().invokeExact(fd);
    }

    /** The file type bits (S_IFMT) of an open descriptor, or -1 with errno in {@code state}. */
    int type(java.lang.foreign.Arena arena, MemorySegment state, int fd) throws Throwable {
        MemorySegment stx = arena.allocate(256, 8);
        int rc = (int) statx().invokeExact(state, fd, arena.allocateFrom(""), AT_EMPTY_PATH, STATX_TYPE, stx);
        return rc != 0 ? -1 : Short.toUnsignedInt(stx.get(ValueLayout.JAVA_SHORT, STX_MODE_OFFSET)) & S_IFMT;
    }

    /** The size statx gives an open descriptor, or -1. */
    long size(java.lang.foreign.Arena arena, MemorySegment state, int fd) throws Throwable {
        MemorySegment stx = arena.allocate(256, 8);
        int rc = (int) statx().invokeExact(state, fd, arena.allocateFrom(""), AT_EMPTY_PATH, STATX_SIZE, stx);
        return rc != 0 ? -1 : stx.get(ValueLayout.JAVA_LONG, STX_SIZE_OFFSET);
    }

    static String kind(int mode) {
        return switch (mode) {
            case S_IFREG -> "a regular file";
            case S_IFDIR -> "a directory";
            case 0010000 -> "a FIFO";
            case 0140000 -> "a socket";
            case 0020000 -> "a character device";
            case 0060000 -> "a block device";
            case S_IFLNK -> "a symlink";
            default -> "not a regular file";
        };
    }
}
