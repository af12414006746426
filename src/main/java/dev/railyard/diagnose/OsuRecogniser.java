package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.check.Fix;
import dev.railyard.model.CheckId;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * OSU micro-benchmarks (osu_bw, osu_bibw, osu_latency, osu_mbw_mr, one-sided tests): the "# OSU MPI … Test" header and
 * "size value" rows, also behind mpirun's "[1,0]<stdout>:" tags and timestamps. Reports the peak and largest-size
 * bandwidth, or the smallest-size latency; an MPI or UCX error is a FAIL, a header with no rows an UNKNOWN.
 */
public record OsuRecogniser() implements Recogniser {

    private static final Pattern HEAD = Pattern.compile("# OSU (?:MPI|OpenSHMEM|UPC)[\\w\\- ]*? (.+?) Test v([\\w.\\-]+)");
    private static final Pattern TAG = Pattern.compile("^.*?\\[\\d+,\\d+]<std(?:out|err)>:");
    private static final Pattern ROW = Pattern.compile("^\\s*(\\d{1,12})\\s+(\\d+(?:\\.\\d+)?)(?:\\s+(\\d+(?:\\.\\d+)?))?\\s*$");
    private static final Pattern ERROR = Pattern.compile("\\*\\*\\* An error occurred|MPI_ERR_\\w+|\\bError: .+|UCX\\s+ERROR .+"
            + "|Segmentation fault|terminated with signal");

    @Override
    public ToolKind tool() {
        return ToolKind.OSU;
    }

    @Override
    public List<String> signatureLiterals() {
        return List.of("# OSU ");
    }

    @Override
    public boolean recognises(TextLines text) {
        return text.lines().stream().anyMatch(l -> l.contains("# OSU ") && HEAD.matcher(l).find());
    }

    @Override
    public ToolReading read(TextLines text, DiagnoseTargets targets) {
        List<Measurement> numbers = new ArrayList<>();
        List<Diagnosis> out = new ArrayList<>();
        String test = "";
        boolean latency = false;
        double peak = 0, last = -1, first = -1;
        long peakSize = 0, lastSize = 0, firstSize = 0;
        int rows = 0, head = 0;
        List<String> lines = text.lines();
        for (int i = 0; i < lines.size(); i++) {
            String l = TAG.matcher(lines.get(i)).replaceFirst("");
            Matcher h = HEAD.matcher(l);
            if (h.find()) {
                if (test.isEmpty()) {
                    test = h.group(1);
                    latency = test.toLowerCase(java.util.Locale.ROOT).contains("latency");
                    head = i + 1;
                }
                continue;
            }
            Matcher e = ERROR.matcher(l);
            if (e.find() && out.stream().noneMatch(d -> d.severity() == Severity.FAIL)) {
                out.add(Diagnosis.of(CheckId.BENCH_RDMA_BW.id(), Severity.FAIL, "osu " + test, "the MPI job failed: "
                        + e.group().strip(), Fix.lines("mpirun -x UCX_LOG_LEVEL=info ...   # the same run, with UCX's "
                                + "choice of transports", "ucx_info -d | grep -E 'Transport|Device'",
                        Fix.note("an error in one-sided (MPI_Win_*) tests with the UCX osc is a library fault: try "
                                + "the other osc component (-mca osc ^ucx) or another MPI/UCX release")),
                        i + 1, lines.get(i), "OSU"));
            }
            Matcher r = ROW.matcher(l);
            if (test.isEmpty() || !r.find()) continue;
            long size = Long.parseLong(r.group(1));
            double v = Double.parseDouble(r.group(2));
            rows++;
            if (first < 0) {
                first = v;
                firstSize = size;
            }
            if (v > peak) {
                peak = v;
                peakSize = size;
            }
            last = v;
            lastSize = size;
        }
        if (rows > 0 && latency) {
            numbers.add(new Measurement("latency at " + firstSize + " B", first, "us"));
            numbers.add(new Measurement("latency at " + lastSize + " B", last, "us"));
        } else if (rows > 0) {
            numbers.add(new Measurement("peak bandwidth (at " + peakSize + " B)", peak, "MB/s"));
            numbers.add(new Measurement("bandwidth at " + lastSize + " B", last, "MB/s"));
        }
        if (out.isEmpty()) {
            if (rows == 0) {
                out.add(Diagnosis.of(CheckId.BENCH_RDMA_BW.id(), Severity.UNKNOWN, "osu " + test, "the header was "
                        + "printed but no size finished: the run hung or was cut", Fix.lines("mpirun ... -x "
                        + "UCX_LOG_LEVEL=info   # run again and watch where it stops"), head, text.line(head), "OSU"));
            } else {
                String v = latency ? String.format(java.util.Locale.ROOT, "%.2f us at %d B", first, firstSize)
                        : String.format(java.util.Locale.ROOT, "peak %.2f MB/s (%.1f Gb/s) at %d B", peak,
                        peak * 8 / 1000, peakSize);
                out.add(Diagnosis.of(CheckId.BENCH_RDMA_BW.id(), Severity.PASS, "osu " + test, rows + " sizes; " + v
                        + "; the paste states no link rate to judge it against", "", head, text.line(head), "OSU"));
            }
        }
        return new ToolReading(out, Parsed.none().withNumbers(numbers));
    }
}
