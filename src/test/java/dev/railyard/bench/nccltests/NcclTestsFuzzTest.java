package dev.railyard.bench.nccltests;

import dev.railyard.bench.Garbler;
import dev.railyard.bench.RealSamples;
import dev.railyard.bench.ToolParseException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/** Every real sample, damaged in 300 seeded ways: the parser returns a result or throws ToolParseException. */
class NcclTestsFuzzTest {

    @Test
    void damagedSamplesParseOrFailWithTheTypedError() {
        NcclTestsParser parser = new NcclTestsParser();
        int typed = 0;
        int total = 0;
        for (String sample : RealSamples.all("bench/nccltests")) {
            String body = RealSamples.body(sample);
            for (String v : Garbler.variants(body, sample.hashCode(), 300)) {
                total++;
                try {
                    parser.parse(v);
                } catch (ToolParseException e) {
                    typed++;
                    assertThat(e.lineNumber()).isPositive();
                    assertThat(v.split("\\r?\\n", -1)[e.lineNumber() - 1]).isEqualTo(e.line());
                } catch (RuntimeException e) {
                    fail(sample + ": " + e + " on input:\n" + v, e);
                }
            }
        }
        assertThat(total).isEqualTo(300 * RealSamples.all("bench/nccltests").size());
        // The damage must reach the table sometimes, or this test proves nothing.
        assertThat(typed).isPositive();
    }
}
