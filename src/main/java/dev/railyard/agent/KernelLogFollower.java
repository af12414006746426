package dev.railyard.agent;

import dev.railyard.bench.ibtools.KernelLogParser;
import dev.railyard.bench.ibtools.LinkEvent;
import dev.railyard.collect.Collector;
import dev.railyard.collect.KernelLogCollector;
import dev.railyard.model.Reading;
import dev.railyard.model.XidEvent;
import dev.railyard.platform.HostRoot;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * Xid events for the agent, as they arrive. On the live node a daemon thread follows /dev/kmsg (a blocking read
 * returns one record, which is what following wants; the thread never holds a lock while blocked). On a captured or
 * test tree the saved railyard/dmesg.txt is re-read when it changes, so a test can append an Xid line. At most
 * {@link #KEEP} events are kept; {@link #clear()} hides the ones seen so far (an operator acknowledged them).
 * mlx5 link changes ("enp157s0f1np1: Link down", "mlx5_5: Port: 1 Link INIT") are kept too, at most {@link #KEEP},
 * for {@link KernelLinkEventDetector}.
 *
 * <p>A clear also covers kernel time: the newest event's time since boot is kept, with the boot's id, in the agent's
 * state file, so after a restart the events still in the kernel's buffer that a clear acknowledged stay hidden (the
 * follower starts at the buffer's oldest record). A new boot starts the kernel's clock again, so a mark from another
 * boot is not applied.
 */
public final class KernelLogFollower implements Collector<Reading<List<XidEvent>>>, AutoCloseable {

    static final int KEEP = 1000;
    /** Lines kept for context: "fallen off the bus" follows its "NVRM: The NVIDIA GPU" line. */
    private static final int CONTEXT = 3;

    private final HostRoot root;
    /** An event and its kernel time in microseconds since boot; -1 when its line carries none. */
    private record Kept(XidEvent event, long micros) {}

    private final Deque<Kept> events = new ArrayDeque<>();
    private final Optional<AgentStateFile> stateFile;
    private final String bootId;
    /** Events at or before this kernel time were acknowledged by a clear, in this run or one before it. */
    private long clearedThroughMicros = -1;
    private long newestMicros = -1;
    private final Deque<String> context = new ArrayDeque<>();
    private final Deque<LinkEvent> links = new ArrayDeque<>();
    private final KernelLogParser linkParser = new KernelLogParser();
    private long linksSeen;
    private long seen;
    private long clearedUpTo;
    /** Why there are no events to judge (no log, unreadable log), or empty while following works. */
    private Optional<Reading<List<XidEvent>>> problem = Optional.empty();
    private String lastFallenLine = "";
    private long fileSize = -1;
    private long fileModified = -1;
    private Thread follower;

    private KernelLogFollower(HostRoot root, Optional<AgentStateFile> stateFile) {
        this.root = root;
        this.stateFile = stateFile;
        this.bootId = root.read("proc/sys/kernel/random/boot_id").orElse("");
        // live, a mark without a boot id could be from another boot, whose kernel clock meant other moments
        boolean sameBootKnown = !root.isLive() || !bootId.isEmpty();
        stateFile.flatMap(AgentStateFile::load)
                .filter(m -> sameBootKnown && m.bootId().equals(bootId))
                .ifPresent(m -> clearedThroughMicros = m.kernelLogClearedThroughMicros());
    }

    public static KernelLogFollower start(HostRoot root) {
        return start(root, Optional.empty());
    }

    /** With {@code stateFile}, a clear is written there and honoured again after a restart in the same boot. */
    public static KernelLogFollower start(HostRoot root, Optional<AgentStateFile> stateFile) {
        KernelLogFollower f = new KernelLogFollower(root, stateFile);
        if (root.isLive()) {
            f.follower = Thread.ofPlatform().daemon().name("railyard-kmsg").start(f::follow);
        }
        return f;
    }

    @Override
    public synchronized Reading<List<XidEvent>> collect(HostRoot ignored) {
        if (!root.isLive()) rereadCapturedLog();
        if (problem.isPresent()) return problem.get();
        List<XidEvent> visible = new ArrayList<>();
        long index = seen - events.size();
        for (Kept k : events) {
            if (index++ >= clearedUpTo && (k.micros() < 0 || k.micros() > clearedThroughMicros)) visible.add(k.event());
        }
        return Reading.of(List.copyOf(visible));
    }

    /** Events, link events and context lines kept (at most 2 × {@link #KEEP} + 3). */
    synchronized int held() {
        return events.size() + links.size() + context.size();
    }

    /**
     * Hides every event seen so far, and remembers the newest one's kernel time in the state file; returns how many
     * were visible. A state file that cannot be written is named in the returned reason.
     */
    public synchronized Optional<String> clear() {
        clearedUpTo = seen;
        clearedThroughMicros = Math.max(clearedThroughMicros, newestMicros);
        return stateFile.flatMap(f -> f.save(new AgentStateFile.Mark(bootId, clearedThroughMicros)));
    }

    private void follow() {
        try (InputStream in = Files.newInputStream(root.resolve("dev/kmsg"))) {
            byte[] record = new byte[8192];
            while (!Thread.currentThread().isInterrupted()) {
                int n;
                try {
                    n = in.read(record);
                } catch (IOException e) {
                    // EPIPE: records were overwritten before we read them; the next read continues after the gap
                    if (String.valueOf(e.getMessage()).contains("Broken pipe")) continue;
                    throw e;
                }
                if (n < 0) break;
                String text = new String(record, 0, n, StandardCharsets.UTF_8);
                accept(message(text), micros(text));
            }
        } catch (IOException e) {
            synchronized (this) {
                problem = Optional.of(Reading.failed("dev/kmsg", String.valueOf(e.getMessage())
                        + (e instanceof java.nio.file.AccessDeniedException ? " (run the agent as root)" : "")));
            }
        }
    }

    /** "6,1234,5678,-;NVRM: Xid ..." → the text after ';' up to the first newline (continuations are key=value). */
    static String message(String record) {
        int semi = record.indexOf(';');
        String text = semi >= 0 ? record.substring(semi + 1) : record;
        int nl = text.indexOf('\n');
        return nl >= 0 ? text.substring(0, nl) : text;
    }

    /** "6,1234,5678,-;..." → 5678, the record's time in microseconds since boot; -1 when not there. */
    static long micros(String record) {
        String[] head = record.substring(0, Math.max(0, record.indexOf(';'))).split(",");
        if (head.length < 3) return -1;
        try {
            return Long.parseLong(head[2]);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** "1234.567890" (dmesg's own stamp) → microseconds; -1 for another format (wall-clock stamps, none). */
    static long micros(XidEvent e) {
        String t = e.timestamp();
        int dot = t.indexOf('.');
        if (dot <= 0 || !t.chars().allMatch(c -> c == '.' || Character.isDigit(c)) || t.indexOf('.', dot + 1) >= 0) return -1;
        try {
            String frac = (t.substring(dot + 1) + "000000").substring(0, 6);
            return Long.parseLong(t.substring(0, dot)) * 1_000_000 + Long.parseLong(frac);
        } catch (NumberFormatException ex) {
            return -1;
        }
    }

    /**
     * The link events after the first {@code after} ones seen (at most the {@link #KEEP} newest), and how many have
     * been seen in all, to pass as {@code after} next time.
     */
    synchronized LinkEvents linkEventsAfter(long after) {
        long first = linksSeen - links.size();
        List<LinkEvent> out = new ArrayList<>();
        long index = first;
        for (LinkEvent e : links) {
            if (index++ >= after) out.add(e);
        }
        return new LinkEvents(List.copyOf(out), linksSeen);
    }

    record LinkEvents(List<LinkEvent> events, long seenInAll) {}

    private void addLink(LinkEvent e) {
        links.addLast(e);
        linksSeen++;
        if (links.size() > KEEP) links.removeFirst();
    }

    synchronized void accept(String line) {
        accept(line, -1);
    }

    /** One kernel-log line; {@code micros} is its record's time when the record carried one (dev/kmsg). */
    synchronized void accept(String line, long micros) {
        if (line.contains("mlx5_core") && line.contains("Link ")) linkParser.parse(line).linkEvents().forEach(this::addLink);
        context.addLast(line);
        if (context.size() > CONTEXT) context.removeFirst();
        if (line.contains("NVRM: Xid")) {
            KernelLogCollector.parse(List.of(line)).forEach(e -> add(e, micros));
        } else if (line.contains("fallen off the bus")) {
            // the GPU's address is on the "NVRM: The NVIDIA GPU" line, which may come before this one
            for (XidEvent e : KernelLogCollector.parse(List.copyOf(context))) {
                if (!e.line().contains("NVRM: Xid") && !e.line().equals(lastFallenLine)) {
                    lastFallenLine = e.line();
                    add(e, micros);
                }
            }
        }
    }

    private void add(XidEvent e) {
        add(e, micros(e));
    }

    private void add(XidEvent e, long micros) {
        long at = micros >= 0 ? micros : micros(e);
        newestMicros = Math.max(newestMicros, at);
        events.addLast(new Kept(e, at));
        seen++;
        if (events.size() > KEEP) events.removeFirst();
    }

    private void rereadCapturedLog() {
        String path = KernelLogCollector.CAPTURED_PATH;
        try {
            var file = root.resolve(path);
            if (!Files.isRegularFile(file)) {
                problem = Optional.of(Reading.absent("no " + path + " in " + root));
                return;
            }
            long size = Files.size(file);
            long modified = Files.getLastModifiedTime(file).toMillis();
            if (size == fileSize && modified == fileModified) return;
            fileSize = size;
            fileModified = modified;
        } catch (IOException e) {
            problem = Optional.of(Reading.failed(path, String.valueOf(e.getMessage())));
            return;
        }
        Reading<List<String>> lines = root.readTail(path, HostRoot.DOCUMENT_MAX_BYTES).map(t -> t.lines().toList());
        if (!(lines instanceof Reading.Present<List<String>>(List<String> all))) {
            problem = Optional.of(lines.<List<XidEvent>>map(l -> List.of()));
            return;
        }
        problem = Optional.empty();
        List<LinkEvent> linkEvents = linkParser.parse(String.join("\n", all)).linkEvents();
        if (linkEvents.size() < linksSeen) { // rewritten shorter
            links.clear();
            linksSeen = 0;
        }
        for (int i = (int) linksSeen; i < linkEvents.size(); i++) addLink(linkEvents.get(i));
        List<XidEvent> parsed = KernelLogCollector.parse(all);
        // the file holds the whole log: events past the ones counted so far are new
        long before = seen;
        for (int i = (int) Math.min(before, parsed.size()); i < parsed.size(); i++) add(parsed.get(i));
        if (parsed.size() < before) { // rewritten shorter: start over, keeping the clear mark relative
            events.clear();
            seen = 0;
            clearedUpTo = 0;
            parsed.forEach(this::add);
        }
    }

    @Override
    public void close() {
        if (follower != null) follower.interrupt();
    }
}
