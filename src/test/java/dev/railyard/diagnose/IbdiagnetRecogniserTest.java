package dev.railyard.diagnose;

import dev.railyard.model.Severity;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * ibdiagnet on a real capture of a 42-node fabric (one link at 2x where 4x was enabled): its closing table, its
 * sections' -E-/-W- lines and its fabric summary. No fabric here, so only the reading is tested.
 */
class IbdiagnetRecogniserTest {

    private static final String SAMPLE = "ib-tools/ibdiagnet-2.7-fabric-one-link-2x-speed-width-errors-nvtest.txt";
    private final Diagnoser diagnoser = Diagnoser.standard();

    @Test
    void theStageWithErrorsIsAFailNamingTheNarrowLink() {
        DiagnosisReport r = diagnoser.diagnose(RealSample.text(SAMPLE));
        assertThat(r.tool()).isEqualTo(ToolKind.IBDIAGNET);
        assertThat(r.worst()).isEqualTo(Severity.FAIL);
        Diagnosis fail = r.diagnoses().stream().filter(d -> d.severity() == Severity.FAIL).findFirst().orElseThrow();
        assertThat(fail.subject()).isEqualTo("Speed / Width checks");
        assertThat(fail.cause()).contains("15 errors, 0 warnings", "trained below the speed or width",
                "actual link width is 2x");
        assertThat(fail.line()).startsWith("-I- Speed / Width checks");
        assertThat(fail.fix()).contains("/var/tmp/ibdiagnet2/ibdiagnet2.log", "iblinkinfo --line");
    }

    @Test
    void warningsAreWarnsAndOldFirmwareOnlyAdvice() {
        DiagnosisReport r = diagnoser.diagnose(RealSample.text(SAMPLE));
        assertThat(r.diagnoses()).anySatisfy(d -> {
            assertThat(d.subject()).isEqualTo("Discovery");
            assertThat(d.severity()).isEqualTo(Severity.WARN);
            assertThat(d.cause()).contains("3 warnings", "No response for MAD VSGeneralInfo");
        });
        assertThat(r.diagnoses()).anySatisfy(d -> {
            assertThat(d.subject()).isEqualTo("Nodes Information");
            assertThat(d.severity()).isEqualTo(Severity.INFO);
            assertThat(d.fix()).contains("mlxfwmanager --query");
        });
        // the eight clean stages make no verdict of their own
        assertThat(r.diagnoses()).hasSize(3);
        assertThat(r.parsed().numbers()).anySatisfy(m -> {
            assertThat(m.name()).isEqualTo("Total Nodes");
            assertThat(m.value()).isEqualTo(42);
        }).anySatisfy(m -> {
            assertThat(m.name()).isEqualTo("Links at 2x50");
            assertThat(m.value()).isEqualTo(1);
        });
    }

    @Test
    void aPasteCutBeforeTheTableIsJudgedOnItsErrorLines() {
        String all = RealSample.text(SAMPLE);
        String cut = all.substring(0, all.indexOf("Virtualization"));
        DiagnosisReport r = diagnoser.diagnose(cut);
        assertThat(r.tool()).isEqualTo(ToolKind.IBDIAGNET);
        assertThat(r.worst()).isEqualTo(Severity.FAIL);
        assertThat(r.diagnoses()).anySatisfy(d -> {
            assertThat(d.subject()).isEqualTo("Speed / Width checks");
            assertThat(d.cause()).contains("3 errors", "Unexpected width");
        });
    }
}
