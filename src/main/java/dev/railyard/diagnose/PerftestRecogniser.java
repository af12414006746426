package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.model.PerftestFailure;
import dev.railyard.model.PerftestHeader;
import dev.railyard.bench.perftest.PerftestParser;
import dev.railyard.model.PerftestResult;
import dev.railyard.check.BenchVerdicts;
import dev.railyard.model.CheckId;
import dev.railyard.model.Finding;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * perftest (ib_write_bw, ib_read_lat, ...): each error perftest printed becomes a FAIL with its fix, a bandwidth
 * table a bench.rdma.bw verdict against the link rate, a latency table a bench.rdma.lat verdict.
 */
public record PerftestRecogniser() implements Recogniser {

    private static final LinePattern SIGNATURE = LinePattern.compile(
            "RDMA_(?:Write|Read) (?:Bidirectional )?(?:BW|Latency)|Send (?:Bidirectional )?(?:BW|Latency) Test|"
                    + "#bytes\\s+#iterations|ib_(?:write|read|send|atomic)_(?:bw|lat)|Port number \\d+ state is|"
                    + "Couldn't get context|Unable to find GID|Failed to get GID|Couldn't connect to \\S+:\\d+|"
                    + "Unable to init the socket connection|Failed status \\d+: wr_id|run_iter_(?:bw|lat)");
    /** A header field that states the port speed ("Link speed : 100Gb/s", "Rate : 40 Gb/sec"). */
    private static final Pattern SPEED_KEY = Pattern.compile("(?i)\\b(?:link )?(?:speed|rate)\\b");
    private static final Pattern GBPS = Pattern.compile("(?i)^(\\d+(?:\\.\\d+)?)\\s*G");

    @Override
    public ToolKind tool() {
        return ToolKind.PERFTEST;
    }

    @Override
    public List<String> signatureLiterals() {
        return SIGNATURE.needles();
    }

    @Override
    public boolean recognises(TextLines text) {
        return text.lines().stream().anyMatch(l -> SIGNATURE.find(l));
    }

    @Override
    public ToolReading read(TextLines text, DiagnoseTargets targets) {
        PerftestPlausibility.Units units = PerftestPlausibility.units(new PerftestParser().parse(text.joined()), text);
        PerftestResult r = units.result();
        String subject = r.header().flatMap(PerftestHeader::device).orElse("perftest");
        List<Diagnosis> out = new ArrayList<>();
        boolean specific = r.failures().stream().anyMatch(f -> f.kind() != PerftestFailure.Kind.RUN_FAILED);
        String id = r.header().map(PerftestHeader::isLatencyTest).orElse(r.bandwidth().isEmpty()
                && !r.latency().isEmpty()) ? BenchVerdicts.RDMA_LAT : BenchVerdicts.RDMA_BW;
        for (PerftestFailure f : r.failures()) {
            // "Failed to complete run_iter" only repeats the error above it
            if (specific && f.kind() == PerftestFailure.Kind.RUN_FAILED) continue;
            String detail = f.detail().equals(f.kind().meaning()) ? "" : " (" + f.detail() + ")";
            out.add(Diagnosis.of(id, Severity.FAIL, subject, f.kind().meaning() + detail, f.fix(),
                    f.lineNumber(), f.line(), "perftest"));
        }
        units.note().ifPresent(out::add);
        Optional<ProseRate.Stated> prose = targets.linkGbps().isPresent() || r.header().flatMap(
                PerftestRecogniser::statedRate).isPresent() ? Optional.empty() : ProseRate.in(text);
        DiagnoseTargets judgedBy = prose.map(p -> new DiagnoseTargets(Optional.of(p.gbps()), targets.rdmaBwEfficiency(),
                targets.rdmaLatencyUs(), targets.ncclBusbwGBps(), targets.fabricExpected(),
                targets.storageSeqMiBps())).orElse(targets);
        r.largestBandwidthRow().ifPresent(row -> {
            out.add(evidence(text, bandwidth(subject, r, judgedBy), row.bytes(), row.iterations()));
            prose.ifPresent(p -> out.add(Diagnosis.of(CheckId.BENCH_RDMA_BW.id(), Severity.INFO, subject,
                    "judged against " + p.gbps() + " Gb/s, the rate the paste's own words state (\"" + p.words()
                            + "\"), not a default", "", 0, "", "perftest")));
        });
        r.smallestLatencyRow().ifPresent(row -> out.add(evidence(text,
                BenchVerdicts.rdmaLatencyTable(subject, r, targets.rdmaLatencyUs()), row.bytes(), row.iterations())));
        if (out.isEmpty()) {
            out.add(Diagnosis.of(id, Severity.UNKNOWN, subject, "perftest output without a result table or an "
                    + "error", Rerun.andDiagnose("nothing to judge in the paste; the client side prints the "
                    + "table", "perftest.txt"), 0, "", "perftest"));
        }
        return new ToolReading(out, Parsed.of(r, numbers(r)));
    }

    private static Finding bandwidth(String subject, PerftestResult r, DiagnoseTargets targets) {
        Optional<Finding> small = PerftestPlausibility.tooSmallToJudge(subject, r);
        if (small.isPresent()) return small.get();
        boolean ib = PerftestPlausibility.infiniband(r);
        Optional<Double> rate = targets.linkGbps().or(() -> r.header().flatMap(PerftestRecogniser::statedRate))
                .map(g -> PerftestPlausibility.dataRate(g, ib));
        return rate.map(g -> BenchVerdicts.rdmaBandwidthTable(subject, r, g, targets.rdmaBwEfficiency()))
                .orElseGet(() -> BenchVerdicts.rdmaBandwidthUnrated(subject, r, targets.rdmaBwEfficiency()));
    }

    /** The port speed, where a perftest build prints it in its header (stock perftest does not). */
    static Optional<Double> statedRate(PerftestHeader h) {
        for (Map.Entry<String, String> e : h.fields().entrySet()) {
            if (!SPEED_KEY.matcher(e.getKey()).find() || e.getKey().contains("Msg")) continue;
            Matcher m = GBPS.matcher(e.getValue().strip());
            if (m.find()) return Optional.of(Double.parseDouble(m.group(1)));
        }
        return Optional.empty();
    }

    private static Diagnosis evidence(TextLines text, Finding f, long bytes, long iterations) {
        int n = TableRows.lastLineWith(text, bytes, iterations);
        return new Diagnosis(f, n, text.line(n), "perftest");
    }

    private static List<Measurement> numbers(PerftestResult r) {
        List<Measurement> out = new ArrayList<>();
        r.largestBandwidthRow().ifPresent(row -> {
            String at = " at " + row.bytes() + " B";
            out.add(new Measurement("BW average" + at, row.average(), row.unit().label()));
            out.add(new Measurement("BW peak" + at, row.peak(), row.unit().label()));
            out.add(new Measurement("BW average" + at + " in Gb/s", FioRecogniser.round(row.averageGbps()), "Gb/s"));
        });
        r.bestBandwidthRow().filter(b -> r.largestBandwidthRow().map(l -> l.bytes() != b.bytes()).orElse(false))
                .ifPresent(row -> out.add(new Measurement("best BW average (at " + row.bytes() + " B)",
                        FioRecogniser.round(row.averageGbps()), "Gb/s")));
        r.smallestLatencyRow().ifPresent(row -> {
            String at = " at " + row.bytes() + " B";
            add(out, "t_min" + at, row.minUs());
            add(out, "t_typical" + at, row.typicalUs());
            add(out, "t_avg" + at, row.avgUs());
            add(out, "t_99%" + at, row.p99Us());
            add(out, "t_max" + at, row.maxUs());
        });
        return out;
    }

    private static void add(List<Measurement> out, String name, OptionalDouble v) {
        if (v.isPresent()) out.add(new Measurement(name, v.getAsDouble(), "µs"));
    }
}
