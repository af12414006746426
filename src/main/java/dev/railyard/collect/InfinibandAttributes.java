package dev.railyard.collect;

import dev.railyard.model.RdmaPort.GidType;
import dev.railyard.model.RdmaPort.LinkRate;
import dev.railyard.model.RdmaPort.PortState;
import dev.railyard.model.Reading;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parsers for the text formats of sys/class/infiniband attributes; pure, no I/O. */
final class InfinibandAttributes {

    private static final Pattern STATE = Pattern.compile("(\\d{1,9})\\s*:\\s*(\\S.*)");
    private static final Pattern RATE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*Gb/sec(?:\\s*\\((\\d+X)[^)]*\\))?");
    /** The text the kernel writes for a counter when the device has no Performance Management Agent (iWARP). */
    static final String NO_PMA = "N/A (no PMA)";

    private InfinibandAttributes() {}

    /** "4: ACTIVE" (state) or "5: LinkUp" (phys_state); some drivers write "4: ACTIVE" into phys_state too. */
    static Reading<PortState> state(String path, Reading<String> raw) {
        if (!(raw instanceof Reading.Present<String>(String s))) return raw.map(x -> null);
        Matcher m = STATE.matcher(s.trim());
        if (!m.matches()) return Reading.failed(path, "not a port state: \"" + s + "\"");
        return Reading.of(new PortState(Integer.parseInt(m.group(1)), m.group(2).trim()));
    }

    /** "40 Gb/sec (4X QDR)", "25 Gb/sec (1X EDR)", "10 Gb/sec (4X)", "200 Gb/sec (2X NDR)", "0 GB/sec". */
    static Reading<LinkRate> rate(String path, Reading<String> raw) {
        if (!(raw instanceof Reading.Present<String>(String s))) return raw.map(x -> null);
        Matcher m = RATE.matcher(s.trim());
        if (!m.lookingAt()) {
            // "0 GB/sec" is what an unconfigured port reports (prometheus/procfs handles it the same way)
            if (s.trim().matches("0\\s*GB/sec")) return Reading.of(new LinkRate(0, "", s.trim()));
            return Reading.failed(path, "not a rate: \"" + s + "\"");
        }
        String width = m.group(2) == null ? "" : m.group(2);
        return Reading.of(new LinkRate(Double.parseDouble(m.group(1)), width, s.trim()));
    }

    /** gid_attrs/types/N: "IB/RoCE v1" means IB on an InfiniBand port and RoCE v1 on an Ethernet one. */
    static Reading<GidType> gidType(String path, Reading<String> raw, boolean ethernet) {
        if (!(raw instanceof Reading.Present<String>(String s))) return raw.map(x -> null);
        String t = s.trim();
        if (t.equalsIgnoreCase("RoCE v2")) return Reading.of(GidType.ROCE_V2);
        if (t.equalsIgnoreCase("IB/RoCE v1") || t.equalsIgnoreCase("RoCE v1")) {
            return Reading.of(ethernet ? GidType.ROCE_V1 : GidType.IB);
        }
        if (t.equalsIgnoreCase("IB")) return Reading.of(GidType.IB);
        return Reading.failed(path, "unknown GID type: \"" + t + "\"");
    }

    /** A counter: a number, or absent with the kernel's own words ("N/A (no PMA)"), or failed. */
    static Reading<Long> counter(String path, Reading<String> raw) {
        if (!(raw instanceof Reading.Present<String>(String s))) return raw.map(x -> 0L);
        String t = s.trim();
        if (t.startsWith("N/A")) return Reading.absent(t);
        try {
            return Reading.of(Long.parseLong(t));
        } catch (NumberFormatException e) {
            return Reading.failed(path, "not a counter: \"" + t + "\"");
        }
    }

    /** True for the unused entries of a GID table ("0000:0000:...:0000"), which are most of it. */
    static boolean isZeroGid(String gid) {
        for (int i = 0; i < gid.length(); i++) {
            char c = gid.charAt(i);
            if (c != '0' && c != ':' && !Character.isWhitespace(c)) return false;
        }
        return true;
    }

    /** A port directory name as a number, if it is one. */
    static Optional<Integer> portNumber(String name) {
        try {
            return Optional.of(Integer.parseInt(name));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
