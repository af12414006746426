package dev.railyard.collect;

import dev.railyard.model.Reading;
import dev.railyard.model.XidEvent;
import dev.railyard.platform.CommandRunner;
import dev.railyard.platform.HostRoot;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * NVIDIA Xid events from the kernel log. On a captured root: the saved {@code railyard/dmesg.txt}. On a live root:
 * {@code dmesg} through the CommandRunner, with a timeout. Why not /dev/kmsg directly: its reads block at the end of
 * the buffer and plain Java cannot open it O_NONBLOCK, so a bounded read would need native code outside nativelib.
 */
public final class KernelLogCollector implements Collector<Reading<List<XidEvent>>> {

    public static final String CAPTURED_PATH = "railyard/dmesg.txt";
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    /** "NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, name=python, message" (pid and name optional, pid may be quoted). */
    private static final Pattern XID = Pattern.compile(
            "NVRM: Xid \\((?:PCI:)?([0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}(?:\\.[0-9A-Fa-f])?)\\): (\\d+),\\s*(.*)$");
    private static final Pattern PID_NAME = Pattern.compile("^(?:pid=('[^']*'|[^,]*),\\s*)?(?:name=([^,]*),\\s*)?(.*)$");
    /** "NVRM: The NVIDIA GPU 0000:b3:00.0" ... "fallen off the bus" over several lines, without an Xid (NVSentinel #155). */
    private static final Pattern FALLEN_GPU = Pattern.compile("NVRM: The NVIDIA GPU ([0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2})");

    /**
     * The start of a kernel log line: dmesg's "[  12.345678]", -T's "[Sun Feb 23 16:24:18 2025]", --time-format iso,
     * --decode's "kern  :warn  : " before any of them, a raw "<4>" level, or journalctl -k's "Nov 22 10:51:00 host kernel:".
     */
    private static final Pattern LOG_LINE = Pattern.compile("(?:[a-z]{2,8} *: *[a-z]{2,7} *: *)?(?:<\\d{1,3}>)?(?:"
            + "\\[ *\\d+\\.\\d+\\]"
            + "|\\[[A-Z][a-z]{2} [A-Z][a-z]{2} [ \\d]\\d \\d{2}:\\d{2}:\\d{2} \\d{4}\\]"
            + "|\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}"
            + "|[A-Z][a-z]{2} [ \\d]\\d \\d{2}:\\d{2}:\\d{2} \\S+ kernel:)");

    private final CommandRunner runner;

    public KernelLogCollector(CommandRunner runner) {
        this.runner = runner;
    }

    public KernelLogCollector() {
        this(CommandRunner.system());
    }

    @Override
    public Reading<List<XidEvent>> collect(HostRoot root) {
        if (!root.isLive()) {
            // a log saved with a big log_buf_len can pass the limit: its newest records are the ones to judge
            Reading<String> text = root.readTail(CAPTURED_PATH, HostRoot.DOCUMENT_MAX_BYTES);
            if (text instanceof Reading.Absent<String>) return Reading.absent("no " + CAPTURED_PATH + " in the capture");
            if (!(text instanceof Reading.Present<String>(String log))) return text.map(x -> List.of());
            List<String> lines = log.lines().toList();
            String notALog = notAKernelLog(lines);
            if (notALog != null) return Reading.failed(CAPTURED_PATH, notALog);
            return Reading.of(parse(lines));
        }
        CommandRunner.Result r = runner.run(List.of("dmesg"), TIMEOUT);
        if (r.notFound()) return Reading.absent("dmesg not found: " + r.startError());
        if (r.timedOut()) return Reading.failed("dmesg", "timed out after " + TIMEOUT.toSeconds() + " s");
        if (!r.ok()) {
            String err = r.stderr().strip();
            return Reading.failed("dmesg", (err.isEmpty() ? "exit " + r.exitCode() : err)
                    + (err.contains("Operation not permitted") ? " (kernel.dmesg_restrict=1: run as root)" : ""));
        }
        return Reading.of(parse(r.stdout().lines().toList()));
    }

    /**
     * Why a saved file is not a kernel log, or null when it is one. "No Xid lines" only means something about a
     * log: an empty file, "N/A" or random text would otherwise pass gpu.xid. At least half of the non-blank lines
     * must start like a dmesg/journal line (continuation lines of multi-line messages do not).
     */
    static String notAKernelLog(List<String> lines) {
        int nonBlank = 0;
        int stamped = 0;
        for (String line : lines) {
            if (line.isBlank()) continue;
            nonBlank++;
            if (LOG_LINE.matcher(line).lookingAt()) stamped++;
        }
        if (nonBlank == 0) return "empty: not a kernel log, so Xid errors cannot be ruled out";
        if (stamped * 2 < nonBlank) {
            return "does not look like a kernel log (" + stamped + " of " + nonBlank
                    + " lines start like dmesg output), so Xid errors cannot be ruled out";
        }
        return null;
    }

    /** Every Xid line of a kernel log in any of the dmesg time formats; other lines are skipped. */
    public static List<XidEvent> parse(List<String> lines) {
        List<XidEvent> out = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            int at = line.indexOf("NVRM: ");
            if (at < 0) continue;
            Matcher m = XID.matcher(line);
            if (m.find()) {
                int code;
                try {
                    code = Integer.parseInt(m.group(2));
                } catch (NumberFormatException e) {
                    continue; // more digits than an int: not an Xid line we can trust
                }
                Matcher pn = PID_NAME.matcher(m.group(3));
                String message = pn.matches() ? pn.group(3).strip() : m.group(3).strip();
                out.add(new XidEvent(timestamp(line.substring(0, m.start())), m.group(1), code, message, line));
                continue;
            }
            Matcher f = FALLEN_GPU.matcher(line);
            if (f.find() && fallenOffWithin(lines, i)) {
                out.add(new XidEvent(timestamp(line.substring(0, f.start())), f.group(1), 79,
                        "GPU has fallen off the bus (driver message without an Xid line)", line));
            }
        }
        return out;
    }

    private static boolean fallenOffWithin(List<String> lines, int from) {
        for (int j = from; j < Math.min(lines.size(), from + 3); j++) {
            if (lines.get(j).contains("fallen off the bus")) return true;
        }
        return false;
    }

    /** The prefix before "NVRM:" without brackets and the "kern  :warn  :" facility of dmesg --decode. */
    static String timestamp(String prefix) {
        String t = prefix.strip();
        int facility = t.lastIndexOf(" : ");
        if (t.startsWith("kern") && facility >= 0) t = t.substring(facility + 3).strip();
        if (t.startsWith("[") && t.endsWith("]")) t = t.substring(1, t.length() - 1).strip();
        return t;
    }
}
