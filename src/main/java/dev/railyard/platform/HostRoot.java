package dev.railyard.platform;

import dev.railyard.model.Reading;
import dev.railyard.model.ValueText;
import dev.railyard.nativelib.OpenInRoot.Confine;
import dev.railyard.platform.RootConfinement.Resolved;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotLinkException;
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

    /** sysfs attributes are at most a page; 1 MiB leaves room for procfs tables and still bounds a garbage file. */
    public static final int ATTRIBUTE_MAX_BYTES = 1 << 20;
    /** Saved command output (nvidia-smi -q -x of 8 GPUs is ~250 KB, a dmesg buffer up to 16 MiB with log_buf_len). */
    public static final int DOCUMENT_MAX_BYTES = 32 << 20;

    private final Path root;
    private final boolean live;
    private final ReadLog log;
    private final Map<String, String> unreadable;
    private final RootConfinement confinement;

    private HostRoot(Path root, boolean live, ReadLog log) {
        this.root = root;
        this.live = live;
        this.log = log;
        this.confinement = new RootConfinement(root);
        this.unreadable = live ? Map.of() : loadUnreadable();
    }

    /** Read like any attribute, so a FIFO or a link out of the root here cannot hang or leak either. */
    private Map<String, String> loadUnreadable() {
        if (!(confinement.resolve(UNREADABLE_LIST) instanceof Resolved.Inside(Path real, RootConfinement.Type t))) return Map.of();
        if (!(BoundedRead.text(real, UNREADABLE_LIST, ATTRIBUTE_MAX_BYTES) instanceof Reading.Present<String>(String text))) {
            return Map.of();
        }
        Map<String, String> m = new HashMap<>();
        for (String line : text.lines().toList()) {
            int colon = line.indexOf(": ");
            if (colon > 0) m.put(line.substring(0, colon), line.substring(colon + 2));
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

    /** A captured or test tree; nothing is run and nothing outside it is read, not even through its symlinks. */
    public static HostRoot at(Path root) {
        return new HostRoot(root.toAbsolutePath().normalize(), false, ReadLog.NONE);
    }

    /** A captured or test tree, noting every path the readers touch (which inputs a check's findings rest on). */
    public static HostRoot at(Path root, ReadLog log) {
        return new HostRoot(root.toAbsolutePath().normalize(), false, log);
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

    /** True when the path leads to something inside the root (a link out of the root does not exist here). */
    public boolean exists(String relative) {
        log.file(relative);
        Reading<String> kind = escapedKind(strip(relative));
        if (kind != null) return kind.isPresent();
        if (live) return Files.exists(resolve(relative));
        return confinement.resolve(strip(relative)) instanceof Resolved.Inside;
    }

    public boolean isDirectory(String relative) {
        log.file(relative);
        Reading<String> kind = escapedKind(strip(relative));
        if (kind != null) return kind.optional().map(k -> k.equals("a directory")).orElse(false);
        if (live) return Files.isDirectory(resolve(relative));
        return confinement.resolve(strip(relative)) instanceof Resolved.Inside(Path real, RootConfinement.Type t)
                && t == RootConfinement.Type.DIRECTORY;
    }

    /**
     * A sysfs/procfs attribute, trimmed, at most {@link #ATTRIBUTE_MAX_BYTES}. A missing file is absent; an unreadable
     * one (EINVAL on a zero GID, EACCES), a FIFO, a directory, a link out of the root, a file too large or not
     * UTF-8 text is failed with the path and the cause.
     */
    public Reading<String> read(String relative) {
        return readText(relative, ATTRIBUTE_MAX_BYTES).map(String::trim);
    }

    /**
     * A whole text file (a saved nvidia-smi -q -x, dmesg) of at most {@code maxBytes}, untrimmed; failed like
     * {@link #read} when it cannot be read as text.
     */
    public Reading<String> readText(String relative, int maxBytes) {
        log.file(relative);
        String key = strip(relative);
        if (!unreadable.isEmpty() && unreadable.containsKey(key)) return Reading.failed(key, unreadable.get(key));
        if (!FileNameText.isPlain(key)) {
            Reading<String> r = NativeReads.text(nativeRoot(), key, confine(), true, key, maxBytes);
            if (r != null) return r;
        }
        if (live) return BoundedRead.text(resolve(key), key, maxBytes);
        return switch (confinement.resolve(key)) {
            case Resolved.Inside(Path real, RootConfinement.Type type) -> switch (type) {
                case FILE -> BoundedRead.confined(confinement.realRoot(), below(confinement.realRoot(), real),
                        real, key, maxBytes);
                case DIRECTORY -> Reading.failed(key, BoundedRead.NOT_A_FILE);
                case OTHER -> Reading.failed(key, BoundedRead.NOT_REGULAR);
            };
            case Resolved.Missing m -> {
                Reading<String> unreadableLive = unreadableAtRealPath(key);
                yield unreadableLive != null ? unreadableLive : Reading.absent("no " + key);
            }
            case Resolved.Refused(String link, String why) -> Reading.failed(link, why);
        };
    }

    /**
     * The newest {@code maxBytes} of a text file, from the first whole line after the cut (the whole file when it is
     * smaller); absent or failed as {@link #read}. For logs, whose newest lines matter most.
     */
    public Reading<String> readTail(String relative, int maxBytes) {
        log.file(relative);
        String key = strip(relative);
        if (!unreadable.isEmpty() && unreadable.containsKey(key)) return Reading.failed(key, unreadable.get(key));
        if (live || !FileNameText.isPlain(key)) {
            Reading<String> r = NativeReads.tail(nativeRoot(), key, confine(), true, key, maxBytes);
            if (r != null) return r;
        }
        if (live) {
            Reading<String> type = BoundedRead.typeCheck(resolve(key), key);
            return type != null ? type : BoundedRead.tail(resolve(key), key, maxBytes);
        }
        return switch (confinement.resolve(key)) {
            case Resolved.Inside(Path real, RootConfinement.Type type) -> switch (type) {
                case FILE -> {
                    Reading<String> r = NativeReads.tail(confinement.realRoot(), realRelative(real), Confine.BENEATH,
                            false, key, maxBytes);
                    yield r != null ? r : BoundedRead.tail(real, key, maxBytes);
                }
                case DIRECTORY -> Reading.failed(key, BoundedRead.NOT_A_FILE);
                case OTHER -> Reading.failed(key, BoundedRead.NOT_REGULAR);
            };
            case Resolved.Missing m -> Reading.absent("no " + key);
            case Resolved.Refused(String link, String why) -> Reading.failed(link, why);
        };
    }

    /**
     * Where the kernel confines native reads: "/" live, a captured tree's real root with links out of it refused
     * (as {@link RootConfinement} refuses them).
     */
    private Path nativeRoot() {
        return live ? root : confinement.realRoot();
    }

    private Confine confine() {
        return live ? Confine.IN_ROOT : Confine.BENEATH;
    }

    private String realRelative(Path real) {
        return below(confinement.realRoot(), real);
    }

    /**
     * {@code inside}, an absolute normalised path at or below {@code root}, relative to it: what
     * {@code root.relativize(inside)} gives, by cutting the string, as the readers ask it per file read.
     */
    static String below(Path root, Path inside) {
        String r = root.toString();
        String p = inside.toString();
        if (p.length() == r.length()) return "";
        return p.substring(r.endsWith("/") ? r.length() : r.length() + 1);
    }

    /** For a name that only native calls can open as it is (escaped bytes): what is there; else null. */
    private Reading<String> escapedKind(String key) {
        return FileNameText.isPlain(key) ? null : NativeReads.kind(nativeRoot(), key, confine(), key);
    }

    private static String strip(String relative) {
        return relative.startsWith("/") ? relative.substring(1) : relative;
    }

    /** The capture lists unreadable files by their real path (sys/devices/...), readers ask through sys/class/... */
    private Reading<String> unreadableAtRealPath(String key) {
        int slash = key.lastIndexOf('/');
        if (unreadable.isEmpty() || slash < 0) return null;
        if (!(confinement.resolve(key.substring(0, slash)) instanceof Resolved.Inside(Path parent, RootConfinement.Type t))) return null;
        String real = confinement.realRoot().relativize(parent.resolve(key.substring(slash + 1))).toString();
        String cause = unreadable.get(real);
        return cause == null ? null : Reading.failed(real, cause);
    }

    /** Every line of a file, or absent/failed as {@link #read}. */
    public Reading<List<String>> readLines(String relative) {
        return read(relative).map(s -> s.lines().toList());
    }

    /**
     * An integer attribute: the whole text is one decimal (or 0x hex) number, else the reading is failed with the
     * text. Numbers past a long fail too; they are not clamped.
     */
    public Reading<Long> readLong(String relative) {
        Reading<String> r = read(relative);
        if (!(r instanceof Reading.Present<String>(String s))) return r.map(x -> 0L);
        try {
            boolean hex = s.startsWith("0x") || s.startsWith("0X");
            String digits = hex ? s.substring(2) : s;
            if (digits.isEmpty() || digits.startsWith("+") || digits.startsWith("-") && hex) throw new NumberFormatException();
            return Reading.of(hex ? Long.parseLong(digits, 16) : Long.parseLong(digits));
        } catch (NumberFormatException e) {
            return Reading.failed(strip(relative), "not a number: " + ValueText.quote(s));
        }
    }

    /** An integer attribute within [min, max]; anything else is failed, never narrowed (4294976296 is not 9000). */
    public Reading<Long> readLong(String relative, long min, long max) {
        Reading<Long> r = readLong(relative);
        if (r instanceof Reading.Present<Long>(Long v) && (v < min || v > max)) {
            return Reading.failed(strip(relative), "out of range: " + v + " (expected " + min + ".." + max + ")");
        }
        return r;
    }

    /** An int attribute; a value outside int's range is failed, never truncated. */
    public Reading<Integer> readInt(String relative) {
        return readInt(relative, Integer.MIN_VALUE, Integer.MAX_VALUE);
    }

    /** An int attribute within [min, max]; anything else is failed. */
    public Reading<Integer> readInt(String relative, int min, int max) {
        return readLong(relative, min, max).map(Long::intValue);
    }

    /** The names in a directory, sorted; empty when it does not exist (a missing subsystem is normal). */
    public List<String> list(String relative) {
        return listing(relative).orElse(List.of());
    }

    /**
     * The names in a directory, sorted; absent when it does not exist, failed when it is not a directory, cannot be
     * listed or is reached through a link out of the root.
     */
    public Reading<List<String>> listing(String relative) {
        log.directory(relative);
        String key = strip(relative);
        if (live || !FileNameText.isPlain(key)) {
            Reading<List<String>> r = NativeReads.listing(nativeRoot(), key, confine(), key);
            if (r != null) return r;
        }
        Path p;
        if (live) {
            p = resolve(key);
        } else {
            switch (confinement.resolve(key)) {
                case Resolved.Inside(Path real, RootConfinement.Type t) when t == RootConfinement.Type.DIRECTORY -> {
                    Reading<List<String>> r = NativeReads.listing(confinement.realRoot(), realRelative(real),
                            Confine.BENEATH, key);
                    if (r != null) return r;
                    p = real;
                }
                case Resolved.Inside(Path real, RootConfinement.Type t) -> p = real;
                case Resolved.Missing m -> {
                    return Reading.absent("no " + key);
                }
                case Resolved.Refused(String link, String why) -> {
                    return Reading.failed(link, why);
                }
            }
        }
        if (!Files.isDirectory(p)) {
            return Files.exists(p) ? Reading.failed(key, "not a directory") : Reading.absent("no " + key);
        }
        try (Stream<Path> s = Files.list(p)) {
            return Reading.of(s.map(x -> x.getFileName().toString()).sorted(NaturalOrder.INSTANCE).toList());
        } catch (IOException e) {
            return Reading.failed(key, RootConfinement.message(e));
        }
    }

    /** The target of a symlink, as written (e.g. "../../../../bus/pci/drivers/mlx5_core"). */
    public Reading<String> readLink(String relative) {
        log.file(relative);
        String key = strip(relative);
        if (live || !FileNameText.isPlain(key)) {
            Reading<String> r = NativeReads.readLink(nativeRoot(), key, confine(), key);
            if (r != null) return r;
        }
        Path p = resolve(key);
        if (!live) {
            // the link itself is read, not followed; its directory must still lie inside the root
            int slash = key.lastIndexOf('/');
            if (slash > 0) {
                switch (confinement.resolve(key.substring(0, slash))) {
                    case Resolved.Inside(Path real, RootConfinement.Type t) -> {
                        p = real.resolve(key.substring(slash + 1));
                        Reading<String> r = NativeReads.readLink(confinement.realRoot(), realRelative(p), Confine.BENEATH, key);
                        if (r != null) return r;
                    }
                    case Resolved.Missing m -> {
                        return Reading.absent("no " + key);
                    }
                    case Resolved.Refused(String link, String why) -> {
                        return Reading.failed(link, why);
                    }
                }
            }
        }
        try {
            return Reading.of(Files.readSymbolicLink(p).toString());
        } catch (NoSuchFileException e) {
            return Reading.absent("no " + key);
        } catch (NotLinkException e) {
            return Reading.failed(key, "not a symlink");
        } catch (IOException | UnsupportedOperationException e) {
            return Reading.failed(key, String.valueOf(e.getMessage()));
        }
    }

    /** The last path element a symlink points to (driver name, PCI address of "device"). */
    public Reading<String> linkName(String relative) {
        return readLink(relative).map(t -> Path.of(t).getFileName().toString());
    }

    /**
     * The path of a file after resolving symlinks, relative to the root: "sys/devices/pci0000:00/0000:00:01.0/...".
     * Symlinks are resolved inside the root so captured trees work like the live one; one leading out is failed.
     */
    public Reading<String> realPath(String relative) {
        log.file(relative);
        String key = strip(relative);
        if (!FileNameText.isPlain(key)) {
            Reading<String> r = NativeReads.realPath(nativeRoot(), key, confine(), key);
            if (r != null) return r;
        }
        if (live) {
            try {
                return Reading.of(root.relativize(resolve(key).toRealPath()).toString());
            } catch (NoSuchFileException e) {
                return Reading.absent("no " + key);
            } catch (IOException e) {
                return Reading.failed(key, RootConfinement.message(e));
            }
        }
        return switch (confinement.resolve(key)) {
            case Resolved.Inside(Path real, RootConfinement.Type t) -> Reading.of(confinement.realRoot().relativize(real).toString());
            case Resolved.Missing m -> Reading.absent("no " + key);
            case Resolved.Refused(String link, String why) -> Reading.failed(link, why);
        };
    }

    @Override
    public String toString() {
        return live ? "/" : root.toString();
    }
}
