package dev.railyard.cli;

import dev.railyard.Jargon;
import dev.railyard.check.RunnableFixes;
import dev.railyard.diagnose.Diagnoser;
import dev.railyard.diagnose.Diagnosis;
import dev.railyard.diagnose.DiagnosisCatalog;
import dev.railyard.diagnose.DiagnosisReport;
import dev.railyard.diagnose.DiagnosisRule;
import dev.railyard.diagnose.RealSample;
import dev.railyard.model.RailyardException;
import dev.railyard.report.Json;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * diagnose over every real sample the tests hold, as users see it (text and JSON): no word of our own notes ("seed
 * 000", "S1") appears; systems are named by their hardware. The catalog's rules give fixes that run as they are (the
 * bench verdicts diagnose reuses are covered by check.BenchFixesTest).
 */
class DiagnoseCorpusJargonTest {

    private static final List<String> FOLDERS = List.of("diagnose/corpus/dev", "diagnose/corpus/holdout",
            "diagnose/corpus/holdout2", "bench/perftest", "bench/nccltests", "iperf3", "sockperf", "ib-tools",
            "kernel-log", "fio");

    @Test
    void noDiagnosisOfTheCorpusCarriesInternalJargon() {
        List<String> problems = new ArrayList<>();
        int diagnoses = 0;
        for (String folder : FOLDERS) {
            for (String sample : RealSample.all(folder)) {
                DiagnosisReport report;
                try {
                    report = Diagnoser.standard().diagnose(RealSample.text(sample));
                } catch (RailyardException e) {
                    continue; // not recognised: the user sees the error, checked elsewhere
                }
                for (Diagnosis d : report.diagnoses()) {
                    diagnoses++;
                    problems.addAll(Jargon.in(sample + " source", d.source()));
                }
                problems.addAll(Jargon.in(sample + " text", withoutInputLines(DiagnoseText.render(report), report)));
                problems.addAll(Jargon.in(sample + " json", withoutInputLines(Json.write(DiagnoseJson.of(report)),
                        report)));
            }
        }
        assertThat(diagnoses).isGreaterThan(50);
        assertThat(problems).isEmpty();
    }

    @Test
    void everyCatalogRuleIsRunnableAndNamedByHardware() {
        for (DiagnosisRule rule : DiagnosisCatalog.standard().rules()) {
            RunnableFixes.assertRunnable(rule.id(), rule.fix());
            assertThat(Jargon.in(rule.id(), rule.cause() + "\n" + rule.fix() + "\n" + rule.source())).isEmpty();
        }
    }

    /** The pasted lines diagnose quotes back are the user's own text, not ours. */
    private static String withoutInputLines(String text, DiagnosisReport report) {
        for (Diagnosis d : report.diagnoses()) {
            if (!d.line().isBlank()) text = text.replace(d.line().strip(), "");
        }
        return text;
    }
}
