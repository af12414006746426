package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.check.ShellWord;
import dev.railyard.model.BwRow;
import dev.railyard.model.PerftestHeader;
import dev.railyard.model.PerftestResult;
import dev.railyard.check.BenchVerdicts;
import dev.railyard.check.Fix;
import dev.railyard.model.Finding;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What perftest's numbers can be trusted for. The BW column's unit label can lie (a patched or wrapped perftest
 * prints Gb/s under "[MB/sec]"): MsgRate × message size says which unit the numbers are in. Small messages
 * measure the message rate, not the link. And an InfiniBand rate as ibstat prints it is the signalling rate for
 * SDR, DDR, QDR and FDR (8b/10b and 64b/66b encodings), not what the link carries: QDR 40 carries 32, FDR 56 carries 54.5.
 */
final class PerftestPlausibility {

    /** perftest's default size; below it a run is bound by messages per second, not by the link. */
    static final long SMALLEST_FOR_BANDWIDTH = 65_536;

    private PerftestPlausibility() {
    }

    record Units(PerftestResult result, Optional<Diagnosis> note) {}

    /** The result with each row in the unit MsgRate × size shows, and a note when that is not the label's. */
    static Units units(PerftestResult r, TextLines text) {
        List<BwRow> rows = new ArrayList<>();
        BwRow relabelled = null;
        for (BwRow row : r.bandwidth()) {
            BwRow.BwUnit actual = actualUnit(row);
            if (actual != row.unit()) {
                if (relabelled == null) relabelled = row;
                rows.add(new BwRow(row.bytes(), row.iterations(), row.peak(), row.average(), row.msgRateMpps(),
                        actual));
            } else {
                rows.add(row);
            }
        }
        if (relabelled == null) return new Units(r, Optional.empty());
        BwRow first = relabelled;
        int n = TableRows.lastLineWith(text, first.bytes(), first.iterations());
        String shown = first.unit().label();
        String real = first.unit() == BwRow.BwUnit.MIB_PER_SEC ? "Gb/sec" : "MB/sec";
        return new Units(new PerftestResult(r.headers(), rows, r.latency(), r.warnings(), r.failures()),
                Optional.of(Diagnosis.of(BenchVerdicts.RDMA_BW, Severity.INFO, "perftest units",
                        String.format(Locale.ROOT, "the BW column says %s but MsgRate × size (%.6f Mpps × %d B) "
                                        + "matches %s: read as %s", shown, first.msgRateMpps().orElse(0),
                                first.bytes(), real, real), "", n, text.line(n), "perftest")));
    }

    private static BwRow.BwUnit actualUnit(BwRow row) {
        if (row.msgRateMpps().isEmpty() || row.msgRateMpps().getAsDouble() <= 0 || row.average() <= 0) {
            return row.unit();
        }
        double mpps = row.msgRateMpps().getAsDouble();
        double asMiB = mpps * 1e6 * row.bytes() / 1_048_576.0;
        double asGbit = mpps * row.bytes() * 8 / 1e3;
        boolean fitsMiB = near(row.average(), asMiB), fitsGbit = near(row.average(), asGbit);
        if (row.unit() == BwRow.BwUnit.MIB_PER_SEC && fitsGbit && !fitsMiB) return BwRow.BwUnit.GBIT_PER_SEC;
        if (row.unit() == BwRow.BwUnit.GBIT_PER_SEC && fitsMiB && !fitsGbit) return BwRow.BwUnit.MIB_PER_SEC;
        return row.unit();
    }

    private static boolean near(double value, double implied) {
        return implied > 0 && Math.abs(value - implied) <= 0.1 * implied;
    }

    /**
     * The data rate of a link ibstat calls {@code gbps}: SDR/DDR/QDR use 8b/10b (40 → 32), FDR 64b/66b (56 →
     * 54.5); EDR, HDR and NDR are quoted as data rates already (100, 200, 400). Ethernet rates are data rates.
     */
    static double dataRate(double gbps, boolean infiniband) {
        if (!infiniband) return gbps;
        if (gbps == 10 || gbps == 20 || gbps == 40 || gbps == 2.5 || gbps == 5) return gbps * 0.8;
        // FDR lanes signal at 14.0625 Gb/s, which ibstat rounds to 14 (56 for 4x)
        if (gbps == 56 || gbps == 14 || gbps == 112 || gbps == 168) return gbps * 14.0625 / 14 * 64 / 66;
        return gbps;
    }

    static boolean infiniband(PerftestResult r) {
        return r.header().flatMap(PerftestHeader::linkType).map(t -> t.strip().equalsIgnoreCase("IB"))
                .orElse(false);
    }

    /** A table whose largest message is small: the number is real, but says nothing about the link's rate. */
    static Optional<Finding> tooSmallToJudge(String subject, PerftestResult r) {
        Optional<BwRow> row = r.largestBandwidthRow();
        if (row.isEmpty() || row.get().bytes() >= SMALLEST_FOR_BANDWIDTH) return Optional.empty();
        BwRow b = row.get();
        return Optional.of(new Finding(BenchVerdicts.RDMA_BW, Severity.INFO, subject, String.format(Locale.ROOT,
                "%s %s = %.3f Gb/s at %d B%s: messages this small measure the message rate, not the link",
                trim(b.average()), b.unit().label(), b.averageGbps(), b.bytes(), b.msgRateMpps().isPresent()
                        ? String.format(Locale.ROOT, " (%.3f Mpps)", b.msgRateMpps().getAsDouble()) : ""),
                "messages of " + SMALLEST_FOR_BANDWIDTH + " B or more to judge bandwidth",
                linkFix(r)));
    }

    /**
     * 64 KiB RDMA writes (perftest's default size) on the same device judge the link; ib_write_bw whatever the test
     * was, since atomics and sends of a fixed small size cannot be made larger.
     */
    private static String linkFix(PerftestResult r) {
        String dev = r.header().flatMap(PerftestHeader::device).map(d -> " -d " + ShellWord.of(d)).orElse("");
        return Fix.lines(Fix.note("messages of " + SMALLEST_FOR_BANDWIDTH + " B judge the link; on the server "
                        + "side first:"), "ib_write_bw" + dev + " -s " + SMALLEST_FOR_BANDWIDTH,
                Fix.note("then the same on the client, with the server's address at the end"));
    }

    private static String trim(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }
}
