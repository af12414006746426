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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * diagnose over every real sample the tests hold, as users see it (text and JSON): no word of our own notes ("seed
 * 000", "S1") appears; systems are named by their hardware. Every fix it gives on them, and every catalog rule's, runs
 * as it is (the branches the samples do not reach are in diagnose.DiagnoseFixesTest).
 */
class DiagnoseCorpusJargonTest {

    private static final List<String> FOLDERS = List.of("diagnose/corpus/dev", "diagnose/corpus/holdout",
            "diagnose/corpus/holdout2", "diagnose/corpus/holdout3", "bench/perftest", "bench/nccltests", "iperf3", "sockperf", "ib-tools",
            "kernel-log", "fio");

    @Test
    void noDiagnosisOfTheCorpusCarriesInternalJargon() {
        List<String> problems = new ArrayList<>();
        int diagnoses = 0;
        for (Diagnosed s : corpus()) {
            for (Diagnosis d : s.report().diagnoses()) {
                diagnoses++;
                problems.addAll(Jargon.in(s.sample() + " source", d.source()));
            }
            problems.addAll(Jargon.in(s.sample() + " text", withoutInputLines(DiagnoseText.render(s.report()), s.report())));
            problems.addAll(Jargon.in(s.sample() + " json", withoutInputLines(Json.write(DiagnoseJson.of(s.report())),
                    s.report())));
        }
        assertThat(diagnoses).isGreaterThan(50);
        assertThat(problems).isEmpty();
    }

    /**
     * Every fix diagnose gives on a real sample, whichever recogniser or rule gave it, runs as it is. All failures
     * are listed at once, one per distinct fix, with the first sample that showed it.
     */
    @Test
    void everyFixDiagnoseGivesOnTheCorpusIsRunnable() {
        Map<String, String> problems = new LinkedHashMap<>();
        int fixes = 0;
        for (Diagnosed s : corpus()) {
            for (Diagnosis d : s.report().diagnoses()) {
                if (d.fix().isEmpty()) continue;
                fixes++;
                if (problems.containsKey(d.fix())) continue;
                RunnableFixes.problem(s.sample() + " " + d.finding().id() + " " + d.subject(), d.fix())
                        .ifPresent(p -> problems.put(d.fix(), p));
            }
        }
        assertThat(fixes).isGreaterThan(50);
        assertThat(problems.values()).as("%d fixes are not runnable", problems.size()).isEmpty();
    }

    @Test
    void everyCatalogRuleIsRunnableAndNamedByHardware() {
        for (DiagnosisRule rule : DiagnosisCatalog.standard().rules()) {
            RunnableFixes.assertRunnable(rule.id(), rule.fix());
            assertThat(Jargon.in(rule.id(), rule.cause() + "\n" + rule.fix() + "\n" + rule.source())).isEmpty();
        }
    }

    private record Diagnosed(String sample, DiagnosisReport report) {}

    /** Every real sample diagnose recognises, with its report (one it does not recognise is an error, tested elsewhere). */
    private static List<Diagnosed> corpus() {
        List<Diagnosed> all = new ArrayList<>();
        for (String folder : FOLDERS) {
            for (String sample : RealSample.all(folder)) {
                try {
                    all.add(new Diagnosed(sample, Diagnoser.standard().diagnose(RealSample.text(sample))));
                } catch (RailyardException e) {
                    // not recognised: the user sees the error
                }
            }
        }
        return all;
    }

    /** The pasted lines diagnose quotes back are the user's own text, not ours. */
    private static String withoutInputLines(String text, DiagnosisReport report) {
        for (Diagnosis d : report.diagnoses()) {
            if (!d.line().isBlank()) text = text.replace(d.line().strip(), "");
        }
        return text;
    }
}
