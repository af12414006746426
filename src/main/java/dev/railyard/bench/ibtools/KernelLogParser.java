package dev.railyard.bench.ibtools;

import dev.railyard.bench.TextLines;
import dev.railyard.model.XidEvent;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds mlx5 link changes and NVIDIA Xid lines in dmesg, dmesg -T, dmesg --time-format=iso or journalctl -k text.
 * The timestamp is whatever precedes the driver name, since each of those formats writes it differently.
 */
public final class KernelLogParser {

    private static final Pattern MLX5_PORT = Pattern.compile(
            "^(.*?)mlx5_core (\\S+) (\\S+): Port: (\\d{1,3}) Link (\\w+)");
    private static final Pattern MLX5_NETDEV = Pattern.compile("^(.*?)mlx5_core (\\S+) (\\S+): Link (up|down)\\b");
    private static final Pattern XID = Pattern.compile("^(.*?)NVRM: Xid \\(PCI:([0-9a-fA-F:.]+)\\): (\\d{1,5}), ?(.*)$");
    private static final Pattern FALLEN = Pattern.compile("fallen off the bus");

    public KernelLog parse(String output) {
        TextLines text = TextLines.of(output);
        List<LinkEvent> links = new ArrayList<>();
        List<XidEvent> xids = new ArrayList<>();
        List<String> fallen = new ArrayList<>();
        for (int i = 1; i <= text.lines().size(); i++) {
            String line = text.line(i);
            Matcher m;
            if ((m = MLX5_PORT.matcher(line)).find()) {
                links.add(new LinkEvent(stamp(m.group(1)), m.group(2), m.group(3), Integer.parseInt(m.group(4)),
                        m.group(5), i, line));
            } else if ((m = MLX5_NETDEV.matcher(line)).find()) {
                links.add(new LinkEvent(stamp(m.group(1)), m.group(2), m.group(3), 0, m.group(4), i, line));
            } else if ((m = XID.matcher(line)).find()) {
                xids.add(new XidEvent(stamp(m.group(1)), m.group(2), Integer.parseInt(m.group(3)), m.group(4), line));
            } else if (FALLEN.matcher(line).find()) {
                fallen.add(line);
            }
        }
        return new KernelLog(links, xids, fallen);
    }

    private static String stamp(String prefix) {
        return prefix.replaceAll("kernel:\\s*$", "").replaceAll("^kern\\s*:\\w+\\s*:\\s*", "").strip();
    }
}
