package dev.railyard.report;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.railyard.model.Culprit;
import dev.railyard.model.PairTest;
import dev.railyard.model.Severity;
import dev.railyard.model.ValidationReport;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.railyard.model.Finding;
import dev.railyard.model.PairOutcome;
import dev.railyard.model.PairResult;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The report as JSON (report.json): the record's fields through {@link Json}, plus what a script would otherwise
 * recompute: the run's {@code verdict}, and the {@code subject} of every pair test and culprit, the same strings
 * the findings carry. Mix-ins keep the model free of Jackson. docs/validate-report.md describes every field.
 */
public final class ValidationJson {

    private static final ObjectMapper MAPPER = Json.mapper().copy()
            .addMixIn(ValidationReport.class, ReportMixin.class)
            .addMixIn(PairTest.class, SubjectMixin.class)
            .addMixIn(Culprit.class, SubjectMixin.class);

    private static final ObjectMapper TREE = MAPPER.copy()
            .setNodeFactory(com.fasterxml.jackson.databind.node.JsonNodeFactory.withExactBigDecimals(true));

    private ValidationJson() {
    }

    public static String render(ValidationReport report) {
        try {
            return MAPPER.writeValueAsString(report) + "\n";
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Up to this many pair tests report.json holds them all; above, only those of pairs that are not fine. */
    static final int INLINE_PAIRS = 5_000;

    /**
     * report.json: the report with {@code pairsFile} naming the JSON Lines file that holds every pair test and
     * {@code pairsTotal} counting them; {@code pairs} holds them all up to {@link #INLINE_PAIRS}, else only the tests
     * of pairs that are not fine (a finding worse than PASS names them, a test gave no number, or they were retested),
     * so a 512-node run's report.json stays a few MB.
     */
    public static String renderWithPairsFile(ValidationReport report, String pairsFile) {
        List<PairResult> pairs = report.pairs().size() <= INLINE_PAIRS ? report.pairs() : notFine(report);
        ValidationReport shown = new ValidationReport(report.schemaVersion(), report.runId(), report.cluster(),
                report.launcher(), report.startedAt(), report.finishedAt(), report.complete(), report.rounds(), report.nodes(),
                report.clusterFindings(), pairs, report.pairFindings(), report.culprits(), report.benchFindings(),
                report.curves(), report.measurements());
        // exact decimals: a Duration's 5.000000000 stays as report.json always wrote it
        ObjectNode tree = TREE.valueToTree(shown);
        tree.put("pairsFile", pairsFile);
        tree.put("pairsTotal", report.pairs().size());
        try {
            return MAPPER.writeValueAsString(tree) + "\n";
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<PairResult> notFine(ValidationReport report) {
        Set<String> named = new HashSet<>();
        for (Finding f : report.pairFindings()) if (f.severity() != Severity.PASS) named.add(f.subject());
        Set<String> bad = new HashSet<>(named);
        for (PairResult p : report.pairs()) {
            if (p.attempt() > 1 || p.outcome() instanceof PairOutcome.Failed) bad.add(p.test().subject());
        }
        return report.pairs().stream().filter(p -> bad.contains(p.test().subject())).toList();
    }

    /** Every pair test as one JSON object a line (the same fields as report.json's pairs[]). */
    public static void writePairLines(ValidationReport report, OutputStream out) throws IOException {
        ObjectWriter line = MAPPER.writer().without(SerializationFeature.INDENT_OUTPUT)
                .without(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        for (PairResult p : report.pairs()) {
            line.writeValue(out, p);
            out.write('\n');
        }
    }

    abstract static class ReportMixin {
        @JsonProperty("verdict")
        abstract Severity severity();
    }

    abstract static class SubjectMixin {
        @JsonProperty("subject")
        abstract String subject();
    }
}
