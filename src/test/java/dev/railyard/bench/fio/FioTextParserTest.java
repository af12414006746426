package dev.railyard.bench.fio;

import dev.railyard.bench.TextLines;
import dev.railyard.diagnose.RealSample;
import dev.railyard.model.FioJob;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** fio's text output of each version, from the real pastes of the diagnose corpus. */
class FioTextParserTest {

    private static FioTextResult parse(String resource) {
        return new FioTextParser().parse(TextLines.of(RealSample.text("diagnose/corpus/" + resource)));
    }

    @Test
    void fio3RunStatusGroups() {
        FioTextResult r = parse("dev/fio3-run-status-groups-fio1377.txt");
        assertThat(r.jobs()).isEmpty();
        assertThat(r.groups()).extracting(FioGroup::group).containsExactly(0, 1, 2);
        assertThat(r.groups().getFirst().mebibytesPerSecond()).isCloseTo(36.0, within(1e-9));
        assertThat(r.groups().getFirst().ioBytes()).isEqualTo(1436L * 1024 * 1024);
    }

    @Test
    void fio2JobLineUsesBinaryKB() {
        FioTextResult r = parse("dev/fio2-randwrite-infrasim397.txt");
        assertThat(r.version()).isEqualTo("2.1.3");
        FioJob job = r.jobs().getFirst();
        assertThat(job.rw()).isEqualTo("randwrite");
        assertThat(job.write().iops()).isEqualTo(6015);
        assertThat(job.write().mebibytesPerSecond()).isCloseTo(24060 / 1024.0, within(0.01));
        assertThat(job.read().active()).isFalse();
    }

    @Test
    void fio3JobLineWithKiloIopsAndAKilledJob() {
        FioTextResult r = parse("dev/fio3-signal9-randrw-fio462.txt");
        FioJob job = r.jobs().getFirst();
        assertThat(job.read().iops()).isEqualTo(9924);
        assertThat(job.read().mebibytesPerSecond()).isCloseTo(77.5, within(0.01));
        assertThat(job.read().ioBytes()).isEqualTo((long) (18.2 * 1024 * 1024 * 1024));
        assertThat(r.failures()).extracting(FioTextResult.Failure::killed).containsExactly(true, true);
    }

    @Test
    void aggregateLineOfFio1() {
        String text = "Run status group 0 (all jobs):\n"
                + "  WRITE: io=1024.0MB, aggrb=8904KB/s, minb=8904KB/s, maxb=8904KB/s, mint=117752msec, maxt=117752msec\n";
        FioTextResult r = new FioTextParser().parse(TextLines.of(text));
        assertThat(r.groups()).singleElement().satisfies(g -> {
            assertThat(g.direction()).isEqualTo("WRITE");
            assertThat(g.mebibytesPerSecond()).isCloseTo(8904 / 1024.0, within(1e-9));
        });
    }

    @Test
    void aNonZeroErrIsAFailure() {
        String text = "seq: (groupid=0, jobs=1): err= 5 (file:io_u.c:1787, func=io_u error, error=Input/output error)\n";
        FioTextResult r = new FioTextParser().parse(TextLines.of(text));
        assertThat(r.failures()).singleElement().satisfies(f -> {
            assertThat(f.killed()).isFalse();
            assertThat(f.what()).isEqualTo("job seq ended with err=5");
        });
    }
}
