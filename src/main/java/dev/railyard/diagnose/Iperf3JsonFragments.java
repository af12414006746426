package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.model.CheckId;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * iperf3 JSON that is not one whole document: --json-stream events (one object a line), a document cut short by the
 * paste, or a piece a jq filter or an editor kept. Read as far as it goes: every "bits_per_second" it holds, the end
 * event's sender and receiver where there is one; the verdict says what was missing.
 */
final class Iperf3JsonFragments {

    private static final Pattern BPS = Pattern.compile("\"bits_per_second\"\\s*:\\s*([\\d.eE+]+)");
    private static final Pattern EVENT = Pattern.compile("\"event\"\\s*:\\s*\"(\\w+)\"");
    private static final Pattern KEY = Pattern.compile("^\\s*\"(\\w+)\"\\s*:");
    private static final List<String> IPERF3_KEYS = List.of("bits_per_second", "num_streams", "blksize",
            "connecting_to", "test_start", "sender_has_retransmits", "cpu_utilization_percent");

    private Iperf3JsonFragments() {
    }

    static boolean looksLike(TextLines text) {
        for (String l : text.lines()) {
            if (l.contains("\"event\"") && EVENT.matcher(l).find()) return true;
            Matcher k = KEY.matcher(l);
            if (k.find() && IPERF3_KEYS.contains(k.group(1))) return true;
            if (l.contains("\"bits_per_second\"")) return true;
        }
        return false;
    }

    static ToolReading read(TextLines text) {
        List<Double> bps = new ArrayList<>();
        List<String> events = new ArrayList<>();
        int first = 0;
        List<String> lines = text.lines();
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            Matcher e = EVENT.matcher(l);
            while (e.find()) events.add(e.group(1));
            Matcher m = BPS.matcher(l);
            while (m.find()) {
                try {
                    bps.add(Double.parseDouble(m.group(1)));
                    if (first == 0) first = i + 1;
                } catch (NumberFormatException ignored) {
                    // a number cut in the middle is not a reading
                }
            }
        }
        List<Measurement> numbers = new ArrayList<>();
        List<Diagnosis> out = new ArrayList<>();
        if (bps.isEmpty()) {
            out.add(Diagnosis.of(CheckId.BENCH_IPERF3.id(), Severity.INFO, "iperf3 JSON", "a piece of iperf3's JSON "
                    + "with no bits_per_second in it (test parameters only): nothing to judge", Rerun.andDiagnose(
                    "the result is in the \"end\" object of the whole JSON", "iperf3.json"), 0, "", "iperf3"));
            return new ToolReading(out, Parsed.none());
        }
        double firstGbps = bps.getFirst() / 1e9, lastGbps = bps.getLast() / 1e9;
        numbers.add(new Measurement("first bits_per_second", FioRecogniser.round(firstGbps), "Gb/s"));
        numbers.add(new Measurement("last bits_per_second", FioRecogniser.round(lastGbps), "Gb/s"));
        boolean end = events.contains("end");
        String what = !events.isEmpty() ? "--json-stream events (" + String.join(", ", events.stream().distinct()
                .toList()) + ")" : "a cut or filtered piece of iperf3's JSON";
        out.add(Diagnosis.of(CheckId.BENCH_IPERF3.id(), Severity.INFO, "iperf3 bandwidth", String.format(Locale.ROOT,
                        "%s: %d bits_per_second values, first %s Gb/s, last %s Gb/s%s", what, bps.size(),
                        FioRecogniser.round(firstGbps), FioRecogniser.round(lastGbps), end ? ""
                                : "; no \"end\" summary, so these are intervals, not the result"),
                end ? "" : Rerun.andDiagnose("the summary is the \"end\" object, printed when the run finishes",
                        "iperf3.json"), first, text.line(first), "iperf3"));
        return new ToolReading(out, Parsed.none().withNumbers(numbers));
    }
}
