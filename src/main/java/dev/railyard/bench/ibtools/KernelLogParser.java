package dev.railyard.bench.ibtools;

import dev.railyard.bench.Literals;
import dev.railyard.bench.TextLines;
import dev.railyard.model.XidEvent;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds mlx5 link changes, NVIDIA Xid lines and the hardware error reports of {@link KernelEvent} in dmesg,
 * dmesg -T, dmesg --time-format=iso or journalctl -k text. The timestamp is whatever precedes the driver name, since
 * each of those formats writes it differently. Each pattern is tried only on lines holding its literal, which keeps
 * a long healthy log fast.
 */
public final class KernelLogParser {

    private static final Pattern MLX5_PORT = Pattern.compile(
            "^(.*?)mlx5_core (\\S+) (\\S+): Port: (\\d{1,3}) Link (\\w+)");
    private static final Pattern MLX5_NETDEV = Pattern.compile("^(.*?)mlx5_core (\\S+) (\\S+): Link (up|down)\\b");
    private static final Pattern XID = Pattern.compile("^(.*?)NVRM: Xid \\(PCI:([0-9a-fA-F:.]+)\\): (\\d{1,5}), ?(.*)$");
    private static final Pattern FALLEN = Pattern.compile("fallen off the bus");
    private static final String PCIE_BANDWIDTH = " Gb/s available PCIe bandwidth";
    /** What follows PCIE_BANDWIDTH; the device and the number before it are read by hand (an unanchored regex
     * starting at "(\\S+): " retries at every position of every such line). */
    private static final Pattern PCIE_REST = Pattern.compile(
            "(?:, limited by ([\\d.]{1,8} GT/s PCIe x\\d{1,2}) link at (\\S+) \\(capable of ([\\d.]{1,12}) Gb/s with "
                    + "([\\d.]{1,8} GT/s PCIe x\\d{1,2}) link\\)| \\(([\\d.]{1,8} GT/s PCIe x\\d{1,2}) link\\))");
    private static final Pattern PROBE = Pattern.compile("([\\w\\-]+): probe of (\\S+) failed with error (-?\\d{1,6})");
    private static final Pattern EDAC = Pattern.compile("EDAC (?:\\S+ )?(MC\\d{1,4}): (\\d{1,12}) (CE|UE) ");
    private static final Pattern MCE = Pattern.compile("mce: \\[Hardware Error]: (.*)$");
    private static final Pattern AER = Pattern.compile(
            "(\\S+): (?:AER: )?PCIe Bus Error: severity=(Corrected|Uncorrect\\w*(?: \\([\\w\\-]+\\))?), type=([^,]+)");
    private static final Pattern AER_RECEIVED = Pattern.compile(
            "(\\S+): AER: (?:Multiple )?(Corrected|Uncorrect\\w*(?: \\([\\w\\-]+\\))?) error received");
    private static final Pattern APEI = Pattern.compile("\\[Hardware Error]: event severity: (\\w+)");
    private static final Pattern RM_INIT = Pattern.compile("NVRM: GPU (\\S+): RmInitAdapter failed!?(.*)$");
    private static final Pattern NV_PROBE = Pattern.compile("NVRM: The NVIDIA probe routine failed for (\\d+) device");

    /** A line holding none of these is none of the lines this parser reads: one scan instead of a dozen. */
    private static final Literals ANY = new Literals(java.util.stream.Stream.concat(java.util.stream.Stream.of(
            ": Port: ", ": Link ", "NVRM: Xid", "fallen off the bus", PCIE_BANDWIDTH, "probe of ", "EDAC ",
            "[Hardware Error]", "PCIe Bus Error", "error received", "RmInitAdapter failed",
            "NVIDIA probe routine failed"), DeviceFaultLines.LITERALS.stream()).distinct().toList());

    public KernelLog parse(String output) {
        return parse(TextLines.of(output));
    }

    public KernelLog parse(TextLines text) {
        List<LinkEvent> links = new ArrayList<>();
        List<XidEvent> xids = new ArrayList<>();
        List<String> fallen = new ArrayList<>();
        List<KernelEvent> events = new ArrayList<>();
        Sink collect = new Sink() {
            @Override
            public void link(LinkEvent e) {
                links.add(e);
            }

            @Override
            public void xid(XidEvent x, int lineNumber) {
                xids.add(x);
            }

            @Override
            public void fallen(String line, int lineNumber) {
                fallen.add(line);
            }

            @Override
            public void event(KernelEvent e) {
                events.add(e);
            }
        };
        Reader reader = reader(collect);
        List<String> lines = text.lines();
        for (int i = 0; i < lines.size(); i++) {
            if (ANY.in(lines, i) != 0) reader.line(lines.get(i), i + 1);
        }
        return new KernelLog(links, xids, fallen, events, text.nonBlank());
    }

    /** What a line of the log is, told as it is read: a log of any length costs only what the sink keeps. */
    public interface Sink {
        void link(LinkEvent e);

        void xid(XidEvent x, int lineNumber);

        void fallen(String line, int lineNumber);

        void event(KernelEvent e);
    }

    /** Reads lines one at a time into {@code sink}; keeps only which PCIe bandwidth lines it saw. */
    public Reader reader(Sink sink) {
        return new Reader(sink);
    }

    public static final class Reader {
        private final Sink sink;
        private final Map<String, KernelEvent> pcieSeen = new HashMap<>();
        private final List<KernelEvent> one = new ArrayList<>(1);

        Reader(Sink sink) {
            this.sink = sink;
        }

        /** Whether a line may be one this reader reads (one scan for all the literals). */
        public static boolean candidate(String line) {
            return ANY.in(line) != 0;
        }

        /** Line {@code i} (1-based) of the log. */
        public void line(String line, int i) {
            Matcher m;
            if (line.contains(": Port: ") && line.contains("mlx5_core ") && (m = MLX5_PORT.matcher(line)).find()) {
                sink.link(new LinkEvent(stamp(m.group(1)), m.group(2), m.group(3), Integer.parseInt(m.group(4)),
                        m.group(5), i, line));
            } else if (line.contains(": Link ") && line.contains("mlx5_core ")
                    && (m = MLX5_NETDEV.matcher(line)).find()) {
                sink.link(new LinkEvent(stamp(m.group(1)), m.group(2), m.group(3), 0, m.group(4), i, line));
            } else if (line.contains("NVRM: Xid") && (m = XID.matcher(line)).find()) {
                sink.xid(new XidEvent(stamp(m.group(1)), m.group(2), Integer.parseInt(m.group(3)), m.group(4), line), i);
            } else if (line.contains("fallen off the bus")) {
                sink.fallen(line, i);
            } else {
                one.clear();
                event(line, i, one, pcieSeen);
                for (KernelEvent e : one) sink.event(e);
            }
        }
    }

    private static void event(String line, int i, List<KernelEvent> out, Map<String, KernelEvent> pcieSeen) {
        Matcher m;
        int at;
        if ((at = line.indexOf(PCIE_BANDWIDTH)) > 0) {
            pcie(line, at, i, out, pcieSeen);
        } else if (line.contains("probe of ") && (m = PROBE.matcher(line)).find()) {
            out.add(new KernelEvent(KernelEvent.Kind.PROBE_FAILED, m.group(2), m.group(1) + " error " + m.group(3),
                    OptionalDouble.empty(), i, line));
        } else if (line.contains("EDAC ") && (m = EDAC.matcher(line)).find()) {
            out.add(new KernelEvent(m.group(3).equals("CE") ? KernelEvent.Kind.MEMORY_CORRECTED
                    : KernelEvent.Kind.MEMORY_UNCORRECTED, m.group(1), line.substring(m.start()).strip(),
                    number(m.group(2)), i, line));
        } else if (line.contains("[Hardware Error]") && (m = APEI.matcher(line)).find()) {
            boolean corrected = m.group(1).equalsIgnoreCase("corrected");
            out.add(new KernelEvent(corrected ? KernelEvent.Kind.HARDWARE_ERROR_CORRECTED
                    : KernelEvent.Kind.HARDWARE_ERROR_FATAL, "", "event severity: " + m.group(1),
                    OptionalDouble.empty(), i, line));
        } else if (line.contains("mce: [Hardware Error]") && (m = MCE.matcher(line)).find()) {
            out.add(new KernelEvent(KernelEvent.Kind.MACHINE_CHECK, "", m.group(1).strip(), OptionalDouble.empty(),
                    i, line));
        } else if (line.contains("PCIe Bus Error") && (m = AER.matcher(line)).find()) {
            out.add(new KernelEvent(m.group(2).equals("Corrected") ? KernelEvent.Kind.PCIE_CORRECTED
                    : KernelEvent.Kind.PCIE_UNCORRECTED, m.group(1), "severity=" + m.group(2) + ", type="
                    + m.group(3).strip(), OptionalDouble.empty(), i, line));
        } else if (line.contains("error received") && (m = AER_RECEIVED.matcher(line)).find()) {
            out.add(new KernelEvent(m.group(2).equals("Corrected") ? KernelEvent.Kind.PCIE_CORRECTED
                    : KernelEvent.Kind.PCIE_UNCORRECTED, m.group(1), m.group(2) + " error received",
                    OptionalDouble.empty(), i, line));
        } else if (line.contains("RmInitAdapter failed") && (m = RM_INIT.matcher(line)).find()) {
            out.add(new KernelEvent(KernelEvent.Kind.GPU_INIT_FAILED, m.group(1),
                    "RmInitAdapter failed" + m.group(2).strip(), OptionalDouble.empty(), i, line));
        } else if (line.contains("NVIDIA probe routine failed") && (m = NV_PROBE.matcher(line)).find()) {
            out.add(new KernelEvent(KernelEvent.Kind.GPU_INIT_FAILED, "", "the NVIDIA probe routine failed for "
                    + m.group(1) + " device(s)", OptionalDouble.empty(), i, line));
        } else {
            DeviceFaultLines.read(line, i).ifPresent(out::add);
        }
    }

    /**
     * "DEVICE: 7.876 Gb/s available PCIe bandwidth, limited by … (capable of …)" or "… (8.0 GT/s PCIe x8 link)". A
     * driver prints the same line at every probe, so a line read before (from the device on) is not read again.
     */
    private static void pcie(String line, int at, int i, List<KernelEvent> out, Map<String, KernelEvent> seen) {
        int numberStart = line.lastIndexOf(' ', at - 1) + 1;
        if (numberStart < 3 || line.charAt(numberStart - 2) != ':') return;
        int deviceStart = line.lastIndexOf(' ', numberStart - 3) + 1;
        String key = line.substring(deviceStart);
        KernelEvent before = seen.get(key);
        if (before != null) {
            out.add(new KernelEvent(before.kind(), before.device(), before.detail(), before.value(), i, line));
            return;
        }
        String device = line.substring(deviceStart, numberStart - 2);
        Matcher m = PCIE_REST.matcher(line).region(at + PCIE_BANDWIDTH.length(), line.length());
        if (!m.lookingAt()) return;
        boolean limited = m.group(1) != null;
        String detail = limited ? m.group(1) + " link at " + m.group(2) + ", capable of " + m.group(3)
                + " Gb/s with " + m.group(4) : m.group(5);
        KernelEvent e = new KernelEvent(limited ? KernelEvent.Kind.PCIE_LIMITED : KernelEvent.Kind.PCIE_FULL, device,
                detail, number(line.substring(numberStart, at)), i, line);
        seen.put(key, e);
        out.add(e);
    }

    private static OptionalDouble number(String s) {
        try {
            return OptionalDouble.of(Double.parseDouble(s));
        } catch (NumberFormatException e) {
            return OptionalDouble.empty();
        }
    }

    private static String stamp(String prefix) {
        return prefix.replaceAll("kernel:\\s*$", "").replaceAll("^kern\\s*:\\w+\\s*:\\s*", "").strip();
    }
}
