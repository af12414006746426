package dev.railyard.platform;

import dev.railyard.model.Reading;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The filesystem the readers look at: "/" on a live node, or an unpacked capture / test tree. Every reader goes
 * through here with paths relative to the root ("sys/class/infiniband"), never an absolute "/sys/...".
 */
public final class HostRoot {

    /**
     * In a capture: the attributes that could not be read live, one "path: reason" per line, so a captured root
     * reports them failed with the same reason (EINVAL on a down interface's carrier) instead of merely absent.
     */
    public static final String UNREADABLE_LIST = "railyard/unreadable.txt";

    private final Path root;
    private final boolean live;
    private final ReadLog log;
    private final Map<String, String> unreadable;

    private HostRoot(Path root, boolean live, ReadLog log) {
        this.root = root;
        this.live = live;
        this.log = log;
        this.unreadable = live ? Map.of() : loadUnreadable(root.resolve(UNREADABLE_LIST));
    }

    private static Map<String, String> loadUnreadable(Path list) {
        if (!Files.isRegularFile(list)) return Map.of();
        Map<String, String> m = new HashMap<>();
        try {
            for (String line : Files.readAllLines(list, StandardCharsets.UTF_8)) {
                int colon = line.indexOf(": ");
                if (colon > 0) m.put(line.substring(0, colon), line.substring(colon + 2));
            }
        } catch (IOException e) {
            return Map.of();
        }
        return Map.copyOf(m);
    }

    /** The running machine. */
    public static HostRoot live() {
        return new HostRoot(Path.of("/"), true, ReadLog.NONE);
    }

    /** The running machine, noting every path the readers touch so {@code capture} can pack exactly those. */
    public static HostRoot recording(ReadLog log) {
        return new HostRoot(Path.of("/"), true, log);
    }

    /** A captured or test tree; nothing is run and nothing outside it is read. */
    public static HostRoot at(Path root) {
        return new HostRoot(root.toAbsolutePath().normalize(), false, ReadLog.NONE);
    }

    public Path root() {
        return root;
    }

    /** True on the running machine: readers may then also ask libraries (NVML) and commands. */
    public boolean isLive() {
        return live;
    }

    /** A path under the root, from a root-relative one such as "sys/class/net". */
    public Path resolve(String relative) {
        return root.resolve(relative.startsWith("/") ? relative.substring(1) : relative);
    }

    /** The root-relative form of a path under the root, for messages ("sys/class/net/eth0/mtu"). */
    public String relative(Path path) {
        return root.relativize(path).toString();
    }

    public boolean exists(String relative) {
        log.file(relative);
        return Files.exists(resolve(relative));
    }

    public boolean isDirectory(String relative) {
        log.file(relative);
        return Files.isDirectory(resolve(relative));
    }

    /**
     * A sysfs/procfs attribute, trimmed. A missing file is absent; an unreadable one (EINVAL on a zero GID,
     * EACCES) is failed with the path and the cause.
     */
    public Reading<String> read(String relative) {
        log.file(relative);
        String key = relative.startsWith("/") ? relative.substring(1) : relative;
        if (!unreadable.isEmpty() && unreadable.containsKey(key)) return Reading.failed(key, unreadable.get(key));
        Path p = resolve(relative);
        try {
            // Stream to EOF: sysfs/procfs report sizes (4096, 0, or on some kernels a wrong small one) that
            // Files.readString would trust and cut the value short.
            try (var in = Files.newInputStream(p)) {
                return Reading.of(new String(in.readAllBytes(), StandardCharsets.UTF_8).trim());
            }
        } catch (NoSuchFileException e) {
            Reading<String> unreadableLive = unreadableAtRealPath(p);
            return unreadableLive != null ? unreadableLive : Reading.absent("no " + relative);
        } catch (AccessDeniedException e) {
            return Reading.failed(relative, "permission denied");
        } catch (IOException e) {
            return Reading.failed(relative, e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
        }
    }

    /** The capture lists unreadable files by their real path (sys/devices/...), readers ask through sys/class/... */
    private Reading<String> unreadableAtRealPath(Path p) {
        if (unreadable.isEmpty() || p.getParent() == null) return null;
        try {
            String real = relative(p.getParent().toRealPath().resolve(p.getFileName()));
            String cause = unreadable.get(real);
            return cause == null ? null : Reading.failed(real, cause);
        } catch (IOException e) {
            return null;
        }
    }

    /** Every line of a file, or absent/failed as {@link #read}. */
    public Reading<List<String>> readLines(String relative) {
        return read(relative).map(s -> s.lines().toList());
    }

    /** An integer attribute; text that is not a number is failed with the text. */
    public Reading<Long> readLong(String relative) {
        Reading<String> r = read(relative);
        if (!(r instanceof Reading.Present<String>(String s))) return r.map(x -> 0L);
        try {
            String t = s.startsWith("0x") ? s.substring(2) : s;
            return Reading.of(s.startsWith("0x") ? Long.parseLong(t, 16) : Long.parseLong(t));
        } catch (NumberFormatException e) {
            return Reading.failed(relative, "not a number: \"" + s + "\"");
        }
    }

    public Reading<Integer> readInt(String relative) {
        Reading<Long> r = readLong(relative);
        return r.map(Long::intValue);
    }

    /** The names in a directory, sorted; empty when it does not exist (a missing subsystem is normal). */
    public List<String> list(String relative) {
        log.directory(relative);
        Path p = resolve(relative);
        if (!Files.isDirectory(p)) return List.of();
        try (Stream<Path> s = Files.list(p)) {
            return s.map(x -> x.getFileName().toString()).sorted(NaturalOrder.INSTANCE).toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    /** The target of a symlink, as written (e.g. "../../../../bus/pci/drivers/mlx5_core"). */
    public Reading<String> readLink(String relative) {
        log.file(relative);
        Path p = resolve(relative);
        try {
            return Reading.of(Files.readSymbolicLink(p).toString());
        } catch (NoSuchFileException e) {
            return Reading.absent("no " + relative);
        } catch (IOException | UnsupportedOperationException e) {
            return Reading.failed(relative, String.valueOf(e.getMessage()));
        }
    }

    /** The last path element a symlink points to (driver name, PCI address of "device"). */
    public Reading<String> linkName(String relative) {
        return readLink(relative).map(t -> Path.of(t).getFileName().toString());
    }

    /**
     * The path of a file after resolving symlinks, relative to the root: "sys/devices/pci0000:00/0000:00:01.0/...".
     * Symlinks are resolved inside the root so captured trees work like the live one.
     */
    public Reading<String> realPath(String relative) {
        log.file(relative);
        try {
            Path real = resolve(relative).toRealPath();
            Path realRoot = root.toRealPath();
            if (!real.startsWith(realRoot)) return Reading.failed(relative, "points outside the root: " + real);
            return Reading.of(realRoot.relativize(real).toString());
        } catch (NoSuchFileException e) {
            return Reading.absent("no " + relative);
        } catch (IOException e) {
            return Reading.failed(relative, String.valueOf(e.getMessage()));
        }
    }

    @Override
    public String toString() {
        return live ? "/" : root.toString();
    }
}
