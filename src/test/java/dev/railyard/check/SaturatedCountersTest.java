package dev.railyard.check;

import dev.railyard.model.Finding;
import dev.railyard.model.Severity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The real gpud H100 capture: mlx5_1 port 1 (InfiniBand NDR) has link_downed = 255, the 8-bit counter's maximum. */
class SaturatedCountersTest {

    @TempDir
    Path dir;

    @Test
    void aCounterAtItsMaximumIsAFindingOfItsOwnWithTheResetCommand() throws Exception {
        List<Finding> out = new RdmaCountersCheck().run(CheckInput.withoutSpec(CheckTrees.collect(CheckTrees.h100(dir))));
        Finding f = Found.one(out, "rdma.counters.saturated", "mlx5_1:1");
        assertThat(f.severity()).isEqualTo(Severity.WARN);
        // excessive_buffer_overrun_errors is 4 bits wide, and 15 in the capture: saturated too
        assertThat(f.observed()).isEqualTo("link_downed=255 (8-bit, maximum 255), excessive_buffer_overrun_errors=15 "
                + "(4-bit, maximum 15): saturated: new errors are invisible "
                + "until it is reset");
        assertThat(f.remediation()).isEqualTo("perfquery -R -C mlx5_1 -P 1");
        assertThat(out).filteredOn(x -> x.id().equals("rdma.counters.saturated")).extracting(Finding::subject)
                .doesNotHaveDuplicates();
    }
}
