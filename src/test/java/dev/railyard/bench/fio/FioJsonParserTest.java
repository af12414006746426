package dev.railyard.bench.fio;

import dev.railyard.model.FioJob;
import dev.railyard.model.FioResult;

import dev.railyard.bench.ToolParseException;
import dev.railyard.diagnose.RealSample;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class FioJsonParserTest {

    private final FioJsonParser parser = new FioJsonParser();

    @Test
    void superbenchRandRw() {
        FioResult r = parser.parse(RealSample.text("fio/superbench-disk_performance-fio-3.16.json.txt"));
        assertThat(r.version()).isEqualTo("fio-3.16");
        FioJob job = r.jobs().getFirst();
        assertThat(job.name()).isEqualTo("rand_read_write");
        assertThat(job.rw()).isEqualTo("randrw");
        assertThat(job.read().bandwidthKiBps()).isEqualTo(340570);
        assertThat(job.read().megabytesPerSecond()).isCloseTo(340570 * 1024 / 1e6, within(1e-9));
        assertThat(job.read().iops()).isCloseTo(85138.890741, within(1e-6));
        assertThat(job.write().bandwidthKiBps()).isEqualTo(340283);
        assertThat(job.write().iops()).isCloseTo(85066.128925, within(1e-6));
        assertThat(job.read().clatMeanUs()).hasValueCloseTo(1444.476063469, within(1e-9));
        assertThat(job.read().clatP99Us()).isEmpty(); // this run put its percentiles under lat_ns, not clat_ns
    }

    @Test
    void windowsRandWriteWithClatPercentiles() {
        FioJob job = parser.parse(RealSample.text("fio/virtualclient-fio-3.26-json-windowsaio-randwrite.txt")).jobs().getFirst();
        assertThat(job.rw()).isEqualTo("randwrite");
        assertThat(job.read().active()).isFalse();
        assertThat(job.write().bandwidthKiBps()).isEqualTo(8668);
        assertThat(job.write().iops()).isCloseTo(2167.231601, within(1e-6));
        assertThat(job.write().clatP50Us()).hasValueCloseTo(91.648, within(1e-9));
        assertThat(job.write().clatP99Us()).hasValueCloseTo(264.192, within(1e-9));
        assertThat(job.write().clatP999Us()).hasValueCloseTo(41156.608, within(1e-9));
    }

    @Test
    void textOutputIsRejected() {
        assertThatThrownBy(() -> parser.parse("write_test: (g=0): rw=write, bs=(R) 1024KiB-1024KiB\nfio-3.33\n"))
                .isInstanceOfSatisfying(ToolParseException.class, e -> assertThat(e.lineNumber()).isEqualTo(1));
    }
}
