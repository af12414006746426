package dev.railyard.diagnose;

import dev.railyard.bench.Literals;
import dev.railyard.bench.TextLines;
import dev.railyard.bench.ToolParseException;
import dev.railyard.check.Fix;
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
    /** Every recogniser's signature literals, looked for at a paste's ends in one pass per 64. */
    private final List<Literals> signatures;

    public Diagnoser(List<Recogniser> recognisers, DiagnosisCatalog catalog) {
        this.recognisers = List.copyOf(recognisers);
        this.catalog = catalog;
        List<String> all = recognisers.stream().flatMap(r -> r.signatureLiterals().stream()).distinct().toList();
        List<Literals> groups = new ArrayList<>();
        for (int i = 0; i < all.size(); i += 64) groups.add(new Literals(all.subList(i, Math.min(all.size(), i + 64))));
        this.signatures = List.copyOf(groups);
    }

    /** nccl-tests before perftest: an NCCL log can quote "completion error", perftest never prints "NCCL INFO". */
    public static Diagnoser standard() {
        return new Diagnoser(List.of(
                new FioRecogniser(),
                new Iperf3Recogniser(true),
                new NcclTestsRecogniser(),
                new OsuRecogniser(),
                new UcxPerftestRecogniser(),
                new PerftestRecogniser(),
                new IbstatRecogniser(),
                new IbvDevinfoRecogniser(),
                new IbstatusRecogniser(),
                new IbportstateRecogniser(),
                new IblinkinfoRecogniser(),
                new PerfqueryRecogniser(),
                new RdmaLinkRecogniser(),
                new RdmaStatisticRecogniser(),
                new IbdiagnetRecogniser(),
                new MlxlinkRecogniser(),
                new DcgmiDiagRecogniser(),
                new GpuBurnRecogniser(),
                new GpuFryerRecogniser(),
                new NvidiaSmiQRecogniser(),
                new NvidiaSmiTopoRecogniser(),
                new LspciRecogniser(),
                new ShowGidsRecogniser(),
                new SockperfRecogniser(),
                new FioTextRecogniser(),
                new Iperf2Recogniser(),
                new Iperf3Recogniser(false),
                new KernelLogRecogniser(),
                new EthtoolStatsRecogniser(),
                SignatureRecogniser.of(ToolKind.RPING, "\\brping\\b|RDMA_CM_EVENT_")), DiagnosisCatalog.standard());
    }

    DiagnosisCatalog catalog() {
        return catalog;
    }

    public DiagnosisReport diagnose(String input) {
        return diagnose(input, DiagnoseTargets.defaults());
    }

    public DiagnosisReport diagnose(String input, DiagnoseTargets targets) {
        return diagnose(Paste.of(input), targets);
    }

    public DiagnosisReport diagnose(Paste paste, DiagnoseTargets targets) {
        TextLines text = paste.text();
        List<Diagnosis> rules = catalog.match(text);
        Set<String> present = new HashSet<>();
        for (Literals group : signatures) present.addAll(group.named(paste.atEnds(group)));
        for (Recogniser r : recognisers) {
            if (!r.mayRecognise(present) || !r.recognises(text)) continue;
            ToolReading own;
            try {
                own = r.read(text, targets);
            } catch (ToolParseException e) {
                own = new ToolReading(List.of(Diagnosis.of("diagnose.parse", Severity.UNKNOWN, r.tool().label(),
                        "could not parse: " + e.reason(), Rerun.andDiagnose("the output was cut or mixed with "
                                + "other text", "output.txt"),
                        e.lineNumber(), e.line(), r.tool().label())), Parsed.none());
            } catch (RuntimeException e) {
                // a reader's bug must not cost the user the catalog's verdicts on the same paste
                own = new ToolReading(List.of(Diagnosis.of("diagnose.parse", Severity.UNKNOWN, r.tool().label(),
                        "the " + r.tool().label() + " reader failed on this input (" + e + "): a Railyard bug",
                        Fix.lines(Fix.note("report it with the input and this version attached; the rest of "
                                + "this report still stands:"), "railyard --version"), 0, "",
                        r.tool().label())), Parsed.none());
            }
            List<Sections.Section> others = Sections.others(recognisers, r, own, text, present, targets);
            if (!others.isEmpty()) return mixed(r, own, others, rules, paste);
            return new DiagnosisReport(r.tool(), merge(own.diagnoses(), rules, r.supersedes()), own.parsed(),
                    paste.removed());
        }
        if (!rules.isEmpty()) {
            return new DiagnosisReport(ToolKind.CATALOG_ONLY, rules, Parsed.none(), paste.removed());
        }
        throw new RailyardException.Usage("input not recognised as the output of any supported tool",
                "diagnose recognises: " + Arrays.stream(ToolKind.values()).filter(k -> k != ToolKind.CATALOG_ONLY)
                        .map(ToolKind::label).collect(Collectors.joining(", ")));
    }

    /** One section per tool: each tool's verdicts under its name, the numbers of all of them. */
    private static DiagnosisReport mixed(Recogniser first, ToolReading own, List<Sections.Section> others,
                                         List<Diagnosis> rules, Paste paste) {
        List<Diagnosis> all = new ArrayList<>(Sections.labelled(first.tool(), own.diagnoses()));
        List<Measurement> numbers = new ArrayList<>(own.parsed().numbers());
        Set<String> superseded = new HashSet<>(first.supersedes());
        for (Sections.Section s : others) {
            all.addAll(Sections.labelled(s.tool(), s.reading().diagnoses()));
            numbers.addAll(s.reading().parsed().numbers());
        }
        return new DiagnosisReport(ToolKind.MIXED, merge(all, rules, superseded),
                new Parsed(numbers, java.util.Optional.empty()), paste.removed());
    }

    /**
     * On a line both judged, the tool's own verdict wins, unless the catalog's rule is graver, or as grave and the
     * own verdict only echoes the line (an NCCL WARN against "completion error 12", whose cause the rule knows).
     * Rules the recogniser supersedes go.
     */
    static List<Diagnosis> merge(List<Diagnosis> own, List<Diagnosis> rules, Set<String> superseded) {
        List<Diagnosis> all = new ArrayList<>(own);
        for (Diagnosis rule : rules) {
            if (superseded.contains(rule.finding().id())) continue;
            List<Diagnosis> sameLine = own.stream()
                    .filter(d -> d.lineNumber() > 0 && d.lineNumber() == rule.lineNumber()).toList();
            if (sameLine.isEmpty()) {
                all.add(rule);
            } else if (sameLine.stream().allMatch(d -> rule.severity().ordinal() > d.severity().ordinal()
                    || (d.source().equals(Diagnosis.ECHO) && rule.severity().atLeast(d.severity())))) {
                all.removeAll(sameLine);
                all.add(rule);
            }
        }
        all.sort((a, b) -> Integer.compare(order(a), order(b)));
        return all;
    }

    /** Evidence order: verdicts with a line by line number, whole-output verdicts (line 0) after them. */
    private static int order(Diagnosis d) {
        return d.lineNumber() > 0 ? d.lineNumber() : Integer.MAX_VALUE;
    }
}
