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
 * ucx_perftest: the "| Stage | # iterations | …" table with "[thread 0]" progress rows and a "Final:" row
 * (iterations, latency or overhead 50%/average/overall in usec, bandwidth average/overall in MB/s, message rate).
 * A "UCX ERROR" is a FAIL with UCX's own reason; "Destination is unreachable" names what it means.
 */
public record UcxPerftestRecogniser() implements Recogniser {

    private static final Pattern ROW = Pattern.compile("^\\s*(\\[thread \\d+]|Final:)\\s+(\\d+)\\s+([\\d.]+)\\s+([\\d.]+)"
            + "\\s+([\\d.]+)\\s+([\\d.]+)\\s+([\\d.]+)\\s+(\\d+)\\s+(\\d+)");
    private static final Pattern ERROR = Pattern.compile("UCX\\s+ERROR\\s+(.*)$");

    @Override
    public ToolKind tool() {
        return ToolKind.UCX_PERFTEST;
    }

    @Override
    public List<String> signatureLiterals() {
        return List.of("# iterations", "ucx_perftest");
    }

    @Override
    public boolean recognises(TextLines text) {
        return text.lines().stream().anyMatch(l -> l.contains("# iterations") && l.contains("|"));
    }

    @Override
    public ToolReading read(TextLines text, DiagnoseTargets targets) {
        List<Measurement> numbers = new ArrayList<>();
        List<Diagnosis> out = new ArrayList<>();
        boolean latencyTest = text.lines().stream().anyMatch(l -> l.contains("latency (usec)"));
        String[] firstRow = null, lastRow = null;
        int lastLine = 0;
        List<String> lines = text.lines();
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            Matcher e = ERROR.matcher(l);
            if (e.find() && out.isEmpty()) {
                String why = e.group(1).strip();
                String cause = why.contains("Destination is unreachable")
                        ? "UCX found no transport that reaches the peer (" + why + "): the device in UCX_NET_DEVICES "
                        + "is down, on another subnet, or the peer listens on another interface"
                        : "UCX failed: " + why;
                out.add(Diagnosis.of(CheckId.BENCH_RDMA_BW.id(), Severity.FAIL, "ucx_perftest", cause,
                        Fix.lines("ibv_devinfo | grep -E 'hca_id|state|link_layer'", "ucx_info -d | grep -E "
                                + "'Transport|Device'", Fix.note("set UCX_NET_DEVICES to an ACTIVE port both hosts "
                                + "share, e.g. UCX_NET_DEVICES=mlx5_0:1")), i + 1, l, "ucx_perftest"));
            }
            Matcher m = ROW.matcher(l);
            if (!m.find()) continue;
            String[] row = new String[10];
            for (int g = 1; g <= 9; g++) row[g] = m.group(g);
            if (firstRow == null) firstRow = row;
            lastRow = row;
            lastLine = i + 1;
        }
        if (lastRow != null) {
            String what = latencyTest ? "latency" : "overhead";
            numbers.add(new Measurement(what + " average (first row)", Double.parseDouble(firstRow[4]), "us"));
            numbers.add(new Measurement(what + " overall (last row)", Double.parseDouble(lastRow[5]), "us"));
            numbers.add(new Measurement("bandwidth overall (last row)", Double.parseDouble(lastRow[7]), "MB/s"));
            if (out.isEmpty()) {
                String v = latencyTest ? lastRow[5] + " us overall latency" : lastRow[7] + " MB/s overall bandwidth";
                out.add(Diagnosis.of(CheckId.BENCH_RDMA_BW.id(), Severity.PASS, "ucx_perftest", v + " after "
                        + lastRow[2] + " iterations; the paste states no link rate to judge it against", "",
                        lastLine, text.line(lastLine), "ucx_perftest"));
            }
        } else if (out.isEmpty()) {
            out.add(Diagnosis.of(CheckId.BENCH_RDMA_BW.id(), Severity.UNKNOWN, "ucx_perftest", "no result row in "
                    + "the paste", "", 0, "", "ucx_perftest"));
        }
        return new ToolReading(out, Parsed.none().withNumbers(numbers));
    }
}
