package dev.railyard.bench.perftest;

import dev.railyard.model.BwRow;
import dev.railyard.model.LatencyRow;
import dev.railyard.model.PerftestFailure;
import dev.railyard.model.PerftestHeader;
import dev.railyard.model.PerftestResult;
import dev.railyard.model.QpAddress;


import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the text output of ib_write_bw / ib_read_bw / ib_send_bw / ib_*_lat, as printed or as pasted into logs
 * and issues (indented, interleaved server and client, cut short). Lines it does not know are skipped; a line
 * that is plainly part of perftest's table or header but does not read gives a {@link ToolParseException}.
 */
public final class PerftestParser {

    private static final Pattern TITLE = Pattern.compile("^[A-Za-z_]+(?: [A-Za-z_]+)* (BW|Latency|Lat) Test$");
    private static final Pattern FIELD =
            Pattern.compile("([A-Za-z][A-Za-z0-9_*.\\-]*(?: [A-Za-z0-9_*.\\-]+)*)\\s*:\\s*(\\S+)");
    private static final Pattern ADDRESS =
            Pattern.compile("^(local|remote) address: LID (\\S+) QPN (\\S+) PSN (\\S+)");
    private static final Pattern GID = Pattern.compile("^GID: (\\S+)$");
    private static final Pattern LEADING_INT = Pattern.compile("^(\\d{1,9})");

    public PerftestResult parse(String text) {
        State st = new State();
        String[] lines = text.split("\\r?\\n", -1);
        for (int i = 0; i < lines.length; i++) {
            st.line(lines[i], i + 1);
        }
        st.closeHeader();
        return new PerftestResult(st.headers, st.bw, st.lat, st.warnings, st.failures);
    }

    /** The parse in progress: one open header block and at most one open table. */
    private static final class State {
        final List<PerftestHeader> headers = new ArrayList<>();
        final List<BwRow> bw = new ArrayList<>();
        final List<LatencyRow> lat = new ArrayList<>();
        final List<String> warnings = new ArrayList<>();
        final List<PerftestFailure> failures = new ArrayList<>();

        String title;
        Map<String, String> fields;
        List<QpAddress> addresses;
        int headerLine;
        String headerText;
        PerftestTableHeader table;

        void line(String line, int n) {
            String t = line.strip();
            if (t.isEmpty()) return;
            if (TITLE.matcher(t).matches()) {
                closeHeader();
                openHeader(t, n, line);
                table = null;
                return;
            }
            Matcher m = ADDRESS.matcher(t);
            if (m.find()) {
                if (title == null) openHeader("", n, line);
                addresses.add(new QpAddress(m.group(1).equals("local") ? QpAddress.Side.LOCAL : QpAddress.Side.REMOTE,
                        lid(m.group(2), n, line), m.group(3), m.group(4), Optional.empty()));
                return;
            }
            if ((m = GID.matcher(t)).matches() && title != null && !addresses.isEmpty()) {
                int last = addresses.size() - 1;
                addresses.set(last, addresses.get(last).withGid(gid(m.group(1), n, line)));
                return;
            }
            if (PerftestTableHeader.looksLikeOne(t)) {
                table = PerftestTableHeader.parse(t, n, line);
                return;
            }
            if (table != null && Character.isDigit(t.charAt(0))) {
                switch (table.kind()) {
                    case BANDWIDTH -> bw.add(table.bandwidthRow(t, n, line));
                    case LATENCY -> lat.add(table.latencyRow(t, n, line));
                }
                return;
            }
            if (t.contains("Conflicting CPU frequency") || t.startsWith("WARNING") || t.contains("Warning:")) {
                warnings.add(t);
                return;
            }
            Optional<PerftestFailure> f = PerftestFailure.recognise(t, n);
            if (f.isPresent()) {
                failures.add(f.get());
                return;
            }
            if (title != null && table == null) {
                Matcher fm = FIELD.matcher(t);
                while (fm.find()) fields.putIfAbsent(fm.group(1), fm.group(2));
            }
        }

        void openHeader(String t, int n, String line) {
            title = t;
            fields = new LinkedHashMap<>();
            addresses = new ArrayList<>();
            headerLine = n;
            headerText = line;
        }

        void closeHeader() {
            if (title == null) return;
            headers.add(new PerftestHeader(title, title.contains("Bidirectional"),
                    Optional.ofNullable(fields.get("Device")), intField("Number of qps"),
                    Optional.ofNullable(fields.get("Transport type")), Optional.ofNullable(fields.get("Connection type")),
                    intField("Mtu"), Optional.ofNullable(fields.get("Link type")), intField("GID index"),
                    addresses, fields));
            title = null;
        }

        private OptionalInt intField(String key) {
            String v = fields.get(key);
            if (v == null) return OptionalInt.empty();
            Matcher m = LEADING_INT.matcher(v);
            if (!m.find()) throw PerftestTableHeader.bad(headerLine, headerText, key + " is not a number: " + v);
            return OptionalInt.of(Integer.parseInt(m.group(1)));
        }
    }

    /** perftest prints LIDs with "%#04x": "0x1907", but "0000" for zero (the # flag drops 0x for 0). */
    private static int lid(String s, int n, String line) {
        String hex = s.startsWith("0x") || s.startsWith("0X") ? s.substring(2) : s;
        if (!hex.matches("[0-9a-fA-F]{1,4}")) throw PerftestTableHeader.bad(n, line, "LID is not hex: " + s);
        return Integer.parseInt(hex, 16);
    }

    private static QpAddress.Gid gid(String s, int n, String line) {
        String[] parts = s.split(":", -1);
        if (parts.length != 16) throw PerftestTableHeader.bad(n, line, "a GID has 16 bytes, found " + parts.length);
        List<Integer> bytes = new ArrayList<>();
        for (String p : parts) {
            if (!p.matches("\\d{1,3}") || Integer.parseInt(p) > 255) {
                throw PerftestTableHeader.bad(n, line, "GID byte is not 0-255 in decimal: " + p);
            }
            bytes.add(Integer.parseInt(p));
        }
        return new QpAddress.Gid(bytes);
    }
}
