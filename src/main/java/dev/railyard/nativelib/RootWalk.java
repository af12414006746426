package dev.railyard.nativelib;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;

/**
 * openat2's RESOLVE_IN_ROOT (or RESOLVE_BENEATH) done by hand, for kernels before 5.6: each name is opened with
 * O_PATH | O_NOFOLLOW relative to the directory descriptor held before it, and a symlink met on the way is read
 * (readlinkat on its own descriptor) and followed from there, an absolute one from the root. No name is looked up
 * by a whole path, so swapping a directory or a link during the walk cannot lead out of the root.
 */
final class RootWalk {

    /** Linux's own limit on symlinks followed in one lookup (MAXSYMLINKS). */
    private static final int MAX_LINKS = 40;

    /** An opened descriptor, or the errno and words why there is none. */
    record Walked(int fd, int errno, String why) {
        boolean ok() {
            return fd >= 0;
        }
    }

    private RootWalk() {}

    /**
     * Opens {@code relative} under {@code rootFd} with {@code flags}. {@code followLast}: a symlink as the last name
     * is followed rather than refused. {@code beneath}: a link that is absolute or climbs above the root is refused
     * (EXDEV) rather than taken from the root.
     */
    static Walked open(LibcFiles c, Arena arena, MemorySegment state, int rootFd, byte[] relative, int flags,
                       boolean followLast, boolean beneath) throws Throwable {
        Deque<byte[]> todo = new ArrayDeque<>(names(relative));
        Deque<Integer> dirs = new ArrayDeque<>();
        int links = 0;
        try {
            while (!todo.isEmpty()) {
                byte[] name = todo.pollFirst();
                boolean last = todo.isEmpty();
                int dir = dirs.isEmpty() ? rootFd : dirs.peek();
                if (Arrays.equals(name, DOTDOT)) {
                    if (dirs.isEmpty() && beneath) return refused(c, "climbs above the root");
                    if (!dirs.isEmpty()) c.closeQuietly(dirs.pop());
                    if (last) return openLast(c, arena, state, dirs.isEmpty() ? rootFd : dirs.peek(), DOT, flags);
                    continue;
                }
                if (last && !followLast) return openLast(c, arena, state, dir, name, flags | LibcFiles.O_NOFOLLOW);
                int p = (int) c.openat().invokeExact(state, dir, arena.allocateFrom(ValueLayout.JAVA_BYTE, cstring(name)),
                        LibcFiles.O_PATH | LibcFiles.O_NOFOLLOW | LibcFiles.O_CLOEXEC, 0);
                if (p < 0) return failed(c, state);
                int type = c.type(arena, state, p);
                if (type == LibcFiles.S_IFLNK) {
                    byte[] target = readLink(c, arena, state, p, "");
                    c.closeQuietly(p);
                    if (target == null) return failed(c, state);
                    if (++links > MAX_LINKS) return new Walked(-1, LibcFiles.ELOOP, "symlink loop (more than " + MAX_LINKS + " links)");
                    if (target.length > 0 && target[0] == '/') {
                        if (beneath) return refused(c, "symlink points outside the root");
                        while (!dirs.isEmpty()) c.closeQuietly(dirs.pop());
                    }
                    List<byte[]> more = names(target);
                    for (int i = more.size() - 1; i >= 0; i--) todo.addFirst(more.get(i));
                    if (more.isEmpty() && last) return openLast(c, arena, state, dirs.isEmpty() ? rootFd : dirs.peek(), DOT, flags);
                    continue;
                }
                if (last) {
                    c.closeQuietly(p);
                    // O_NOFOLLOW: a symlink swapped in since it was seen as something else is refused, not followed
                    return openLast(c, arena, state, dir, name, flags | LibcFiles.O_NOFOLLOW);
                }
                if (type != LibcFiles.S_IFDIR) {
                    c.closeQuietly(p);
                    return new Walked(-1, LibcFiles.ENOTDIR, c.message(LibcFiles.ENOTDIR));
                }
                dirs.push(p);
            }
            return openLast(c, arena, state, dirs.isEmpty() ? rootFd : dirs.peek(), DOT, flags);
        } finally {
            while (!dirs.isEmpty()) c.closeQuietly(dirs.pop());
        }
    }

    private static final byte[] DOT = {'.'};
    private static final byte[] DOTDOT = {'.', '.'};

    private static Walked openLast(LibcFiles c, Arena arena, MemorySegment state, int dir, byte[] name, int flags)
            throws Throwable {
        int fd = (int) c.openat().invokeExact(state, dir, arena.allocateFrom(ValueLayout.JAVA_BYTE, cstring(name)), flags, 0);
        return fd < 0 ? failed(c, state) : new Walked(fd, 0, null);
    }

    private static Walked failed(LibcFiles c, MemorySegment state) throws Throwable {
        int e = c.errno(state);
        return new Walked(-1, e, c.message(e));
    }

    private static Walked refused(LibcFiles c, String why) {
        return new Walked(-1, LibcFiles.EXDEV, why);
    }

    /** The target of the link {@code name} in {@code dir} ("" with an O_PATH link descriptor), or null. */
    static byte[] readLink(LibcFiles c, Arena arena, MemorySegment state, int dir, String name) throws Throwable {
        return readLink(c, arena, state, dir, name.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    static byte[] readLink(LibcFiles c, Arena arena, MemorySegment state, int dir, byte[] name) throws Throwable {
        int size = 4096;
        MemorySegment buf = arena.allocate(size);
        long n = (long) c.readlinkat().invokeExact(state, dir, arena.allocateFrom(ValueLayout.JAVA_BYTE, cstring(name)), buf, (long) size);
        if (n < 0) return null;
        return buf.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE);
    }

    /** The names of a path, "." and empty ones left out; ".." kept for the walk to judge. */
    static List<byte[]> names(byte[] path) {
        List<byte[]> out = new ArrayList<>();
        int start = 0;
        for (int i = 0; i <= path.length; i++) {
            if (i == path.length || path[i] == '/') {
                if (i > start && !(i - start == 1 && path[start] == '.')) out.add(Arrays.copyOfRange(path, start, i));
                start = i + 1;
            }
        }
        return out;
    }

    /** NUL-terminated, for the C calls. */
    static byte[] cstring(byte[] name) {
        return Arrays.copyOf(name, name.length + 1);
    }
}
