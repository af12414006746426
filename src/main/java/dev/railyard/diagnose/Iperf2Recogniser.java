package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.check.Fix;
import dev.railyard.check.rules.TcpBandwidthRule;
import dev.railyard.check.rules.Verdict;
import dev.railyard.model.CheckId;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * iperf (version 2): "Client connecting to H, TCP port 5001", "[  3]  0.0-10.0 sec  10.9 GBytes  18.7 Gbits/sec"
 * (with -e: Write/Err, Rtry, Cwnd/RTT columns). Its errors come without a prefix: "connect failed: Connection
 * refused" is a FAIL, "write failed: Broken pipe" a WARN (the server went away mid-test, so the number covers only
 * what was sent before).
 */
public record Iperf2Recogniser() implements Recogniser {

    private static final Pattern ROW = Pattern.compile("^\\s*\\[\\s*(?:\\d+|SUM)]\\s+(\\d+\\.\\d+)\\s*-\\s*(\\d+\\.\\d+) sec\\s+"
            + "[\\d.]+ \\w?Bytes\\s+([\\d.]+) ([KMG]?)bits/sec");
    private static final Pattern ERROR = Pattern.compile("\\b(connect|write|read) failed: (.+)$");
    private static final List<String> MARKS = List.of("Client connecting to ", "Server listening on TCP port",
            "Server listening on UDP port", "TCP window size:", "connect failed: ", "write failed: ");

    @Override
    public ToolKind tool() {
        return ToolKind.IPERF2;
    }

    @Override
    public List<String> signatureLiterals() {
        return MARKS;
    }

    @Override
    public boolean recognises(TextLines text) {
        return text.lines().stream().anyMatch(l -> MARKS.stream().anyMatch(l::contains)
                && (l.contains("failed: ") ? ERROR.matcher(l).find() : true));
    }

    @Override
    public ToolReading read(TextLines text, DiagnoseTargets targets) {
        List<Diagnosis> out = new ArrayList<>();
        List<Measurement> numbers = new ArrayList<>();
        double last = -1;
        double longest = -1, longestSpan = -1;
        int rows = 0;
        List<String> lines = text.lines();
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            Matcher e = ERROR.matcher(l);
            if (e.find()) out.add(error(e.group(1), e.group(2).strip(), i + 1, l, text));
            Matcher r = ROW.matcher(l);
            if (!r.find()) continue;
            rows++;
            double gbps = Double.parseDouble(r.group(3)) * switch (r.group(4)) {
                case "K" -> 1e-6;
                case "M" -> 1e-3;
                case "G" -> 1;
                default -> 1e-9;
            };
            double span = Double.parseDouble(r.group(2)) - Double.parseDouble(r.group(1));
            last = gbps;
            numbers.add(new Measurement(String.format(Locale.ROOT, "bandwidth %s-%s s", r.group(1), r.group(2)),
                    FioRecogniser.round(gbps), "Gb/s"));
            if (span > longestSpan) {
                longestSpan = span;
                longest = gbps;
            }
        }
        if (rows > 0 && out.stream().noneMatch(d -> d.severity() == Severity.FAIL)) {
            Verdict v = TcpBandwidthRule.judge(longest, OptionalDouble.empty()).measured(String.format(Locale.ROOT,
                    "%s Gb/s over the longest interval (%.1f s), %d rows; the paste states no link rate to judge it "
                            + "against", FioRecogniser.round(longest), longestSpan, rows));
            out.add(Diagnosis.of(v, "iperf2 bandwidth", 0, "", "iperf2"));
        } else if (rows == 0 && out.isEmpty()) {
            out.add(Diagnosis.of(CheckId.BENCH_TCP_BW.id(), Severity.UNKNOWN, "iperf2", "no result row in the "
                    + "paste", Rerun.andDiagnose("the result rows end in bits/sec", "iperf.txt"), 0, "", "iperf2"));
        }
        if (last >= 0) numbers.add(new Measurement("last row", FioRecogniser.round(last), "Gb/s"));
        return new ToolReading(out, Parsed.none().withNumbers(numbers));
    }

    private static Diagnosis error(String what, String why, int n, String line, TextLines text) {
        String host = host(text);
        if (what.equals("connect")) {
            String cause = why.contains("refused") ? "nothing listens on the server's port: the server is not "
                    + "started, listens on another port, or a firewall rejects the connection"
                    : why.contains("Invalid argument") ? "the address given to -c or -B is not one this host can "
                    + "use (a bind address on another interface, or a name that resolved wrong)"
                    : "the client could not reach the server";
            return Diagnosis.of(TcpBandwidthRule.noConnection("connect failed (" + why + "): " + cause,
                    Fix.lines(Fix.note("on the server " + host + ":"), "iperf -s   # port 5001 unless -p",
                            Fix.note("from this host:"), "nc -vz " + host + " 5001")), "iperf2 client", n, line,
                    "iperf2");
        }
        return Diagnosis.of(TcpBandwidthRule.cutShort(what + " failed (" + why + "): the other side closed the "
                        + "connection mid-test, so the bandwidth printed after it covers only what was sent before",
                Fix.lines(Fix.note("look at the server's output for why it stopped, then run again:"),
                        "iperf -c " + host + " -t 10")), "iperf2 client", n, line, "iperf2");
    }

    private static String host(TextLines text) {
        for (String l : text.lines()) {
            Matcher m = Pattern.compile("Client connecting to ([^,\\s]+)|iperf(?:\\.exe)? .*?-c\\s+(\\S+)").matcher(l);
            if (m.find()) return m.group(1) != null ? m.group(1) : m.group(2);
        }
        return "<server>";
    }
}
