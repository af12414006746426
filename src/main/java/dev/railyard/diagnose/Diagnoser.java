package dev.railyard.diagnose;

import dev.railyard.bench.TextLines;
import dev.railyard.bench.ToolParseException;
import dev.railyard.model.RailyardException;
import dev.railyard.model.Severity;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Recognises which tool printed a text, lets that tool's recogniser judge it, and adds the catalog rules that match.
 * The first recogniser that claims the text wins, so the order puts the most specific signatures first.
 */
public final class Diagnoser {

    private final List<Recogniser> recognisers;
    private final DiagnosisCatalog catalog;

    public Diagnoser(List<Recogniser> recognisers, DiagnosisCatalog catalog) {
        this.recognisers = List.copyOf(recognisers);
        this.catalog = catalog;
    }

    /** perftest and nccl-tests are recognised by signature only: swap in parser-backed recognisers here. */
    public static Diagnoser standard() {
        return new Diagnoser(List.of(
                new FioRecogniser(),
                new Iperf3Recogniser(true),
                SignatureRecogniser.of(ToolKind.NCCL_TESTS, "# nThread|NCCL INFO|Avg bus bandwidth|out-of-place"),
                SignatureRecogniser.of(ToolKind.PERFTEST,
                        "RDMA_(?:Write|Read) (?:BW|Latency)|Send (?:BW|Latency) Test|#bytes\\s+#iterations|"
                                + "ib_(?:write|read|send)_(?:bw|lat)|Port number \\d+ state is|Couldn't get context"),
                new IbstatRecogniser(),
                new IbvDevinfoRecogniser(),
                new ShowGidsRecogniser(),
                new SockperfRecogniser(),
                new Iperf3Recogniser(false),
                new KernelLogRecogniser(),
                SignatureRecogniser.of(ToolKind.RPING, "\\brping\\b|RDMA_CM_EVENT_")), DiagnosisCatalog.standard());
    }

    public DiagnosisReport diagnose(String input) {
        TextLines text = TextLines.of(input);
        List<Diagnosis> rules = catalog.match(text);
        for (Recogniser r : recognisers) {
            if (!r.recognises(text)) continue;
            List<Diagnosis> own;
            try {
                own = r.diagnose(text);
            } catch (ToolParseException e) {
                own = List.of(new Diagnosis(Severity.UNKNOWN, r.tool().label(), "could not parse: " + e.reason(),
                        "check that the whole output was captured", e.lineNumber(), e.line(), r.tool().label()));
            }
            return new DiagnosisReport(r.tool(), merge(own, rules));
        }
        if (!rules.isEmpty()) return new DiagnosisReport(ToolKind.CATALOG_ONLY, rules);
        throw new RailyardException.Usage("input not recognised as the output of any supported tool",
                "diagnose recognises: " + Arrays.stream(ToolKind.values()).filter(k -> k != ToolKind.CATALOG_ONLY)
                        .map(ToolKind::label).collect(Collectors.joining(", ")));
    }

    /** The tool's own verdict on a line wins over a catalog rule on the same line; both say the same thing. */
    private static List<Diagnosis> merge(List<Diagnosis> own, List<Diagnosis> rules) {
        Set<Integer> lines = new HashSet<>();
        own.stream().filter(d -> d.lineNumber() > 0).forEach(d -> lines.add(d.lineNumber()));
        List<Diagnosis> all = new ArrayList<>(own);
        rules.stream().filter(d -> !lines.contains(d.lineNumber())).forEach(all::add);
        return all;
    }
}
