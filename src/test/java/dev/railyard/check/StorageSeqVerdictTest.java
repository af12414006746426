package dev.railyard.check;

import dev.railyard.model.FioDirection;
import dev.railyard.model.FioJob;
import dev.railyard.bench.fio.FioJsonParser;

import dev.railyard.diagnose.RealSample;
import dev.railyard.model.Severity;
import org.junit.jupiter.api.Test;

import java.util.OptionalDouble;

import static org.assertj.core.api.Assertions.assertThat;

class StorageSeqVerdictTest {

    private static FioJob seqWrite(long kibps) {
        FioDirection none = new FioDirection(0, 0, 0, OptionalDouble.empty(), OptionalDouble.empty(),
                OptionalDouble.empty(), OptionalDouble.empty());
        FioDirection w = new FioDirection(kibps, kibps / 1024.0, 1L << 30, OptionalDouble.empty(),
                OptionalDouble.empty(), OptionalDouble.empty(), OptionalDouble.empty());
        return new FioJob("write_test", "write", none, w);
    }

    @Test
    void seed001Gpuserver1WritePassesAFloorOf2000() {
        // the homelab's fio: gpuserver1 sequential write 2103 MiB/s = 2103 * 1024 KiB/s in fio's JSON
        var f = new StorageSeqVerdict(2000).judge("gpuserver1", seqWrite(2103 * 1024));
        assertThat(f.severity()).isEqualTo(Severity.PASS);
        assertThat(f.observed()).isEqualTo("2103 MiB/s");
    }

    @Test
    void slowDiskFailsWithAFix() {
        var job = new FioJsonParser().parse(RealSample.text("fio/virtualclient-fio-3.26-json-windowsaio-randwrite.txt"))
                .jobs().getFirst();
        var f = new StorageSeqVerdict(2000).judge("vm", job);
        assertThat(f.severity()).isEqualTo(Severity.FAIL);
        assertThat(f.observed()).isEqualTo("8 MiB/s");
        assertThat(f.remediation()).contains("LnkSta").contains("nvme smart-log");
    }
}
