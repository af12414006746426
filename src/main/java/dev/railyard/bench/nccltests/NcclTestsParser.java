package dev.railyard.bench.nccltests;

import dev.railyard.model.NcclRankDevice;
import dev.railyard.model.NcclTestsResult;
import dev.railyard.model.NcclTestsRow;
import dev.railyard.model.NcclTestsRun;

import dev.railyard.bench.ToolParseException;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads nccl-tests output (all_reduce_perf and friends), old layout (no root column, "error" instead of
 * "#wrong") and new, with Slurm "0: " or Open MPI "[1,0]<stdout>:" prefixes, and the NCCL INFO/WARN lines
 * mixed into it. Lines it does not know are skipped; a table row that does not read is a
 * {@link ToolParseException} naming the line.
 */
public final class NcclTestsParser {

    private static final Pattern PREFIX = Pattern.compile("^\\s*(?:\\[\\d+,\\d+]<std(?:out|err)>:|\\d+: )");
    private static final Pattern NTHREAD = Pattern.compile("^#\\s*nThread\\s+(\\d{1,9})\\s+nGpus\\s+(\\d{1,9})");
    private static final Pattern RANK = Pattern.compile(
            "^#\\s*Rank\\s+(\\d{1,9})\\s+(?:Group\\s+(\\d{1,9})\\s+)?Pid\\s+(\\d{1,18})\\s+on\\s+(\\S+)\\s+device\\s+(\\d{1,9})\\s+"
                    + "\\[([^]]*)]\\s+(.+?)\\s*$");
    private static final Pattern OOB = Pattern.compile("^#\\s*Out of bounds values\\s*:\\s*(\\d{1,18})\\s+(OK|FAILED)");
    private static final Pattern AVG = Pattern.compile("^#\\s*Avg bus bandwidth\\s*:\\s*(\\S+)");
    private static final Pattern VERSION = Pattern.compile("^NCCL version (\\S+)");
    private static final Pattern NUMBER = Pattern.compile("\\d+(\\.\\d+)?");

    public NcclTestsResult parse(String text) {
        State st = new State();
        String[] lines = text.split("\\r?\\n", -1);
        for (int i = 0; i < lines.length; i++) st.line(lines[i], i + 1);
        st.closeRun();
        return new NcclTestsResult(st.runs, st.version, st.info.result(), st.warns);
    }

    private static final class State {
        final List<NcclTestsRun> runs = new ArrayList<>();
        final List<NcclTestsResult.Warn> warns = new ArrayList<>();
        final NcclInfoLines info = new NcclInfoLines();
        Optional<String> version = Optional.empty();

        OptionalInt nThread = OptionalInt.empty();
        OptionalInt nGpus = OptionalInt.empty();
        List<NcclRankDevice> devices = new ArrayList<>();
        List<NcclTestsRow> rows = new ArrayList<>();
        OptionalLong oob = OptionalLong.empty();
        Optional<Boolean> oobOk = Optional.empty();
        OptionalDouble avg = OptionalDouble.empty();
        boolean tableOpen;
        boolean hasRedop;
        boolean hasRoot;

        void line(String raw, int n) {
            String t = PREFIX.matcher(raw).replaceFirst("").strip();
            if (t.isEmpty()) return;
            int warn = t.indexOf("NCCL WARN ");
            if (warn >= 0) {
                warns.add(new NcclTestsResult.Warn(n, t.substring(warn + "NCCL WARN ".length()).strip()));
                return;
            }
            int inf = t.indexOf("NCCL INFO ");
            if (inf >= 0) {
                String body = t.substring(inf + "NCCL INFO ".length()).strip();
                version(body);
                info.accept(body);
                return;
            }
            if (version(t)) return;
            if (t.startsWith("#")) {
                header(t, n, raw);
                return;
            }
            if (tableOpen && Character.isDigit(t.charAt(0))) rows.add(row(t, n, raw, hasRedop, hasRoot));
        }

        private boolean version(String t) {
            Matcher m = VERSION.matcher(t);
            if (!m.find()) return false;
            version = Optional.of(m.group(1));
            return true;
        }

        private void header(String t, int n, String raw) {
            Matcher m;
            if ((m = NTHREAD.matcher(t)).find()) {
                if (!rows.isEmpty() || !devices.isEmpty()) closeRun();
                nThread = OptionalInt.of(Integer.parseInt(m.group(1)));
                nGpus = OptionalInt.of(Integer.parseInt(m.group(2)));
            } else if ((m = RANK.matcher(t)).find()) {
                if (!rows.isEmpty()) closeRun();
                devices.add(new NcclRankDevice(Integer.parseInt(m.group(1)),
                        m.group(2) == null ? OptionalInt.empty() : OptionalInt.of(Integer.parseInt(m.group(2))),
                        Long.parseLong(m.group(3)), m.group(4), Integer.parseInt(m.group(5)), m.group(6), m.group(7)));
            } else if (t.contains("size") && t.contains("count") && t.contains("busbw")) {
                if (!rows.isEmpty()) closeRun();
                tableOpen = true;
                List<String> cols = List.of(t.substring(1).strip().split("\\s+"));
                hasRedop = cols.contains("redop");
                hasRoot = cols.contains("root");
            } else if ((m = OOB.matcher(t)).find()) {
                oob = OptionalLong.of(Long.parseLong(m.group(1)));
                oobOk = Optional.of(m.group(2).equals("OK"));
            } else if ((m = AVG.matcher(t)).find()) {
                if (!NUMBER.matcher(m.group(1)).matches()) throw bad(n, raw, "average bus bandwidth is not a number");
                avg = OptionalDouble.of(Double.parseDouble(m.group(1)));
                tableOpen = false;
            }
        }

        void closeRun() {
            if (rows.isEmpty() && devices.isEmpty() && avg.isEmpty() && nThread.isEmpty()) return;
            runs.add(new NcclTestsRun(nThread, nGpus, devices, rows, oob, oobOk, avg));
            nThread = OptionalInt.empty();
            nGpus = OptionalInt.empty();
            devices = new ArrayList<>();
            rows = new ArrayList<>();
            oob = OptionalLong.empty();
            oobOk = Optional.empty();
            avg = OptionalDouble.empty();
            tableOpen = false;
        }
    }

    /**
     * size count type [redop] [root] then time algbw busbw #wrong for out-of-place and again for in-place. The
     * table header says which middle columns exist; old alltoall tables name a redop column but leave it blank.
     */
    static NcclTestsRow row(String t, int n, String raw, boolean hasRedop, boolean hasRoot) {
        String[] tok = t.split("\\s+");
        int declared = (hasRedop ? 1 : 0) + (hasRoot ? 1 : 0);
        int middle = tok.length - 11;
        if (middle < 0 || middle > declared || (middle < declared && !hasRedop)) {
            throw bad(n, raw, "expected " + (11 + declared) + " columns, found " + tok.length);
        }
        long size = whole(tok[0], n, raw);
        long count = whole(tok[1], n, raw);
        String type = tok[2];
        if (!type.matches("[A-Za-z][A-Za-z0-9_]*")) throw bad(n, raw, "not a data type: " + type);
        // When a column is blank it is the redop (alltoall); root is always printed when declared.
        String redop = hasRedop && middle == declared ? tok[3] : "";
        String root = hasRoot && middle > 0 ? tok[2 + middle] : "";
        if (!root.isEmpty() && !root.matches("-?\\d+")) throw bad(n, raw, "root is not a rank: " + root);
        int at = 3 + middle;
        return new NcclTestsRow(size, count, type, redop, root, measurement(tok, at, n, raw),
                measurement(tok, at + 4, n, raw));
    }

    private static NcclTestsRow.Measurement measurement(String[] tok, int at, int n, String raw) {
        String w = tok[at + 3];
        OptionalLong wrong = w.equals("N/A") ? OptionalLong.empty() : OptionalLong.of(whole(w, n, raw));
        return new NcclTestsRow.Measurement(decimal(tok[at], n, raw), decimal(tok[at + 1], n, raw),
                decimal(tok[at + 2], n, raw), wrong);
    }

    private static long whole(String s, int n, String raw) {
        if (!s.matches("\\d{1,18}")) throw bad(n, raw, "not a whole number: " + s);
        return Long.parseLong(s);
    }

    private static double decimal(String s, int n, String raw) {
        if (!NUMBER.matcher(s).matches()) throw bad(n, raw, "not a number: " + s);
        return Double.parseDouble(s);
    }

    private static ToolParseException bad(int n, String raw, String reason) {
        return new ToolParseException("nccl-tests", n, raw, reason);
    }
}
