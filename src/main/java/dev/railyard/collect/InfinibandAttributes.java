package dev.railyard.collect;

import dev.railyard.model.RdmaPort.GidType;
import dev.railyard.model.RdmaPort.LinkRate;
import dev.railyard.model.RdmaPort.PortState;
import dev.railyard.model.Reading;
import dev.railyard.model.ValueText;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parsers for the text formats of sys/class/infiniband attributes; pure, no I/O. */
final class InfinibandAttributes {

    /** The kernel's "%d: %s" of ib_port_state_str / phys_state_to_str ("7: Phy Test" has a space, so two words). */
    private static final Pattern STATE = Pattern.compile("(\\d{1,2})[ ]*:[ ]*([A-Za-z_<>]+(?: [A-Za-z]+)?)");
    /** The kernel's "%d%s Gb/sec (%dX%s)"; some drivers leave the width out ("25.78125 Gb/sec"). */
    private static final Pattern RATE = Pattern.compile(
            "(\\d{1,4}(?:\\.\\d{1,6})?)[ ]*Gb/sec(?:[ ]*\\(((\\d{1,2})X)(?: [A-Z0-9]{2,5})?\\))?");
    /** XDR 12X is 2400 Gb/s; anything far above that is not a link rate. */
    static final double MAX_RATE_GBPS = 3200;
    private static final Set<Integer> LANES = Set.of(1, 2, 4, 8, 12);
    private static final Pattern GID = Pattern.compile("[0-9A-Fa-f]{4}(?::[0-9A-Fa-f]{4}){7}");
    /** The text the kernel writes for a counter when the device has no Performance Management Agent (iWARP). */
    static final String NO_PMA = "N/A (no PMA)";

    private InfinibandAttributes() {}

    /** "4: ACTIVE" (state) or "5: LinkUp" (phys_state); some drivers write "4: ACTIVE" into phys_state too. */
    static Reading<PortState> state(String path, Reading<String> raw) {
        if (!(raw instanceof Reading.Present<String>(String s))) return raw.map(x -> null);
        Matcher m = STATE.matcher(s.trim());
        if (!m.matches()) return Reading.failed(path, "not a port state: " + ValueText.quote(s));
        int code = Integer.parseInt(m.group(1));
        String name = m.group(2).trim();
        // the name must be the one the kernel gives that code, in either table: "4: ACTIVEX" is not ACTIVE
        boolean known = code < PortState.STATE_NAMES.size() && PortState.STATE_NAMES.get(code).equalsIgnoreCase(name)
                || code < PortState.PHYS_STATE_NAMES.size() && PortState.PHYS_STATE_NAMES.get(code).equalsIgnoreCase(name);
        if (!known) return Reading.failed(path, "not a port state the kernel writes: " + ValueText.quote(s));
        return Reading.of(new PortState(code, name));
    }

    /** "40 Gb/sec (4X QDR)", "25 Gb/sec (1X EDR)", "10 Gb/sec (4X)", "200 Gb/sec (2X NDR)", "0 GB/sec". */
    static Reading<LinkRate> rate(String path, Reading<String> raw) {
        if (!(raw instanceof Reading.Present<String>(String s))) return raw.map(x -> null);
        String t = s.trim();
        // "0 GB/sec" is what an unconfigured port reports (prometheus/procfs handles it the same way)
        if (t.matches("0[ ]*GB/sec")) return Reading.of(new LinkRate(0, "", t));
        Matcher m = RATE.matcher(t);
        if (!m.matches()) return Reading.failed(path, "not a rate: " + ValueText.quote(s));
        double gbps = Double.parseDouble(m.group(1));
        if (gbps > MAX_RATE_GBPS) return Reading.failed(path, "rate out of range: " + ValueText.quote(s));
        if (m.group(3) != null && !LANES.contains(Integer.parseInt(m.group(3)))) {
            return Reading.failed(path, "not a lane width: " + ValueText.quote(s));
        }
        return Reading.of(new LinkRate(gbps, m.group(2) == null ? "" : m.group(2), t));
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
        return Reading.failed(path, "unknown GID type: " + ValueText.quote(t));
    }

    /**
     * A counter: a non-negative number, or absent with the kernel's own words ("N/A (no PMA)"), or failed. Only the
     * kernel's exact text means "no PMA": a bare "N/A" or "-1" is garbage, not a reason.
     */
    static Reading<Long> counter(String path, Reading<String> raw) {
        if (!(raw instanceof Reading.Present<String>(String s))) return raw.map(x -> 0L);
        String t = s.trim();
        if (t.equals(NO_PMA)) return Reading.absent(t);
        if (!t.matches("\\d{1,20}")) return Reading.failed(path, "not a counter: " + ValueText.quote(t));
        try {
            return Reading.of(Long.parseLong(t));
        } catch (NumberFormatException e) {
            return Reading.failed(path, "counter out of range: " + ValueText.quote(t));
        }
    }

    /** A GID table entry: eight groups of four hex digits. */
    static boolean isGid(String value) {
        return GID.matcher(value).matches();
    }

    /** link_layer: the kernel writes "InfiniBand", "Ethernet" or "Unknown". */
    static Reading<String> linkLayer(String path, Reading<String> raw) {
        if (!(raw instanceof Reading.Present<String>(String s))) return raw;
        if (s.equals("InfiniBand") || s.equals("Ethernet") || s.equals("Unknown")) return raw;
        return Reading.failed(path, "not a link layer: " + ValueText.quote(s));
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

    private static final Pattern PKEY = Pattern.compile("0x([0-9A-Fa-f]{1,4})");

    /** A P_Key table entry as the kernel writes it ("0xffff"); empty for anything else. */
    static Optional<Integer> pkey(String text) {
        Matcher m = PKEY.matcher(text.strip());
        return m.matches() ? Optional.of(Integer.parseInt(m.group(1), 16)) : Optional.empty();
    }
}
