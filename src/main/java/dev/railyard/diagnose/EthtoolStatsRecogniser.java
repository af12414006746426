package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.check.rules.NetCarrierRule;
import dev.railyard.check.rules.Verdict;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * ethtool -S: the NIC's counters. Counters of drops, discards and errors that are not zero are named with what they
 * mean and judged by {@link NetCarrierRule} (the counters run since the driver loaded, so one paste cannot tell a rate).
 * Checksum offload counters such as rx_csum_none and XDP program drops are not faults.
 */
public record EthtoolStatsRecogniser() implements Recogniser {

    private static final Pattern COUNTER = Pattern.compile("^\\s+(?:\\[\\d+]: |[a-z]+\\d+: )?([a-z][\\w.]*): (\\d+)\\s*$");
    private static final Pattern BAD = Pattern.compile("discard|drop|err|missed|out_of_buffer|no_buffer|crc|timeout"
            + "|overflow|overrun|jabber|align|nodesc|buff_alloc");
    private static final Pattern BENIGN = Pattern.compile("csum|xdp|_filtered|(?:^|_)ok$|tpa_|lro");

    @Override
    public ToolKind tool() {
        return ToolKind.ETHTOOL_STATS;
    }

    @Override
    public List<String> signatureLiterals() {
        return List.of("NIC statistics:", "rx_packets: ", "_bytes: ", "_packets: ", "ethtool -S");
    }

    @Override
    public boolean recognises(TextLines text) {
        int counters = 0;
        boolean command = false;
        for (String l : text.lines()) {
            if (l.startsWith("NIC statistics:")) return true;
            command |= l.contains("ethtool -S");
            if (COUNTER.matcher(l).find() && (++counters >= 4 || command)) return true;
        }
        return false;
    }

    @Override
    public ToolReading read(TextLines text, DiagnoseTargets targets) {
        List<Measurement> numbers = new ArrayList<>();
        List<String> bad = new ArrayList<>();
        int first = 0, read = 0;
        List<String> lines = text.lines();
        for (int i = 0; i < lines.size(); i++) {
            Matcher m = COUNTER.matcher(lines.get(i));
            if (!m.find()) continue;
            read++;
            String name = m.group(1);
            long v = Long.parseLong(m.group(2));
            String lower = name.toLowerCase(Locale.ROOT);
            if (v > 0 && BAD.matcher(lower).find() && !BENIGN.matcher(lower).find()) {
                bad.add(name + "=" + v);
                numbers.add(new Measurement(name, v, "count"));
                if (first == 0) first = i + 1;
            }
        }
        numbers.add(new Measurement("counters read", read, "counters"));
        Verdict v = NetCarrierRule.nicCounters(bad, read, meaning(bad), netdev(text));
        Diagnosis d = Diagnosis.of(v.id().id(), v.severity(), "NIC", v.observed(), v.fix(), v.passed() ? 0 : first,
                v.passed() ? "" : text.line(first), "ethtool -S");
        return new ToolReading(new ArrayList<>(List.of(d)), Parsed.none().withNumbers(numbers));
    }

    private static final Pattern IFACE = Pattern.compile("ethtool -S (\\S+)");

    /** The interface the paste's command line names, if it has one. */
    private static Optional<String> netdev(TextLines text) {
        for (String l : text.lines()) {
            Matcher m = IFACE.matcher(l);
            if (m.find()) return Optional.of(m.group(1));
        }
        return Optional.empty();
    }

    private static String meaning(List<String> bad) {
        String all = String.join(" ", bad);
        if (all.contains("out_of_buffer") || all.contains("no_buffer") || all.contains("missed")
                || all.contains("nodesc") || all.contains("no_frags")) {
            return "the host did not post receive buffers fast enough (the CPU or ring size falls behind the "
                    + "line rate): raise the ring size with ethtool -G and spread interrupts over more cores";
        }
        if (all.contains("discards_phy") || all.contains("pause")) {
            return "the NIC dropped packets at the port: congestion without flow control (PFC/pause) on a "
                    + "lossless fabric";
        }
        if (all.contains("crc") || all.contains("align") || all.contains("symbol") || all.contains("jabber")) {
            return "frames arrive corrupted: a cable, transceiver or switch port fault";
        }
        return "the NIC or driver dropped or rejected packets";
    }
}
