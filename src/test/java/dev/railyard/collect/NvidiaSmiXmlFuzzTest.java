package dev.railyard.collect;

import dev.railyard.bench.Garbler;
import dev.railyard.bench.RealSamples;
import dev.railyard.model.Gpu;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/** Seeded damage to every real -q -x sample: each variant parses, or throws the typed error; nothing else. */
class NvidiaSmiXmlFuzzTest {

    static List<String> samples() {
        return RealSamples.all("nvidia-smi");
    }

    @ParameterizedTest
    @MethodSource("samples")
    void garbledSamplesParseOrThrowTheTypedError(String sample) {
        String body = RealSamples.body(sample);
        int parsed = 0;
        int rejected = 0;
        for (String variant : Garbler.variants(body, sample.hashCode(), 150)) {
            try {
                List<Gpu> gpus = new NvidiaSmiXmlParser("f").parse(variant).gpus();
                gpus.forEach(g -> {
                    assertThat(g.pciAddress()).isNotNull();
                    g.ecc().describe(); // every reading is one of present / absent / failed, never null
                });
                parsed++;
            } catch (NvidiaSmiXmlException e) {
                assertThat(e.getMessage()).isNotBlank();
                rejected++;
            } catch (RuntimeException e) {
                fail("variant of " + sample + " threw " + e, e);
            }
        }
        assertThat(parsed).as("some damage (a changed value) still parses").isPositive();
        assertThat(rejected).as("most cuts break the document").isPositive();
    }
}
