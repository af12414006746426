package dev.railyard.check;

import dev.railyard.model.ClusterSpec;
import dev.railyard.model.Finding;
import dev.railyard.model.Severity;
import dev.railyard.spec.SpecReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** gpu.count on the real 4 x H200 capture (GPUs from its saved nvidia-smi -q -x, 4 NVIDIA GPUs on its PCI bus). */
class GpuCountTest {

    @TempDir
    Path dir;

    private List<Finding> count(Path tree, Optional<ClusterSpec> spec) {
        return new GpuSpecCheck().run(new CheckInput(CheckTrees.collect(tree), spec, CheckTrees.NODE)).stream()
                .filter(f -> f.id().equals("gpu.count")).toList();
    }

    private static ClusterSpec spec(String gpus, String ownGpus) {
        return new SpecReader().read("mixed.yaml", """
                cluster: mixed
                nodes:
                  - {name: gpuserver1, address: 192.0.2.2%s}
                  - {name: gpuserver2, address: 192.0.2.3}
                gpus: %s
                """.formatted(ownGpus, gpus));
    }

    @Test
    void aNodeIsHeldToItsOwnGpusInAMixedCluster() throws Exception {
        Path tree = ReaderMutationFuzzTest.bases().get(3).builder().build(dir);
        ClusterSpec mixed = spec("{model: \"NVIDIA H200\", per_node: 8}", ", gpus: {model: \"NVIDIA H200\", per_node: 4}");
        assertThat(count(tree, Optional.of(mixed))).singleElement()
                .satisfies(f -> assertThat(f.severity()).isEqualTo(Severity.PASS));
        ClusterSpec eight = spec("{model: \"NVIDIA H200\", per_node: 8}", "");
        assertThat(count(tree, Optional.of(eight))).singleElement()
                .satisfies(f -> assertThat(f.severity()).isEqualTo(Severity.FAIL));
    }

    @Test
    void aSavedListingWithFewerGpusThanThePciBusIsNoPass() throws Exception {
        Path tree = ReaderMutationFuzzTest.bases().get(3).builder().build(dir);
        Path xml = tree.resolve("railyard/nvidia-smi-q.xml");
        // keep the first two <gpu> blocks of four: the bus still shows four
        String text = Files.readString(xml);
        var gpus = Pattern.compile("(?s)\\s*<gpu id=.*?</gpu>").matcher(text).results().toList();
        assertThat(gpus).hasSize(4);
        Files.writeString(xml, text.substring(0, gpus.get(2).start()) + text.substring(gpus.get(3).end()));

        ClusterSpec two = spec("{model: \"NVIDIA H200\", per_node: 2}", "");
        List<Finding> found = count(tree, Optional.of(two));
        assertThat(found).noneMatch(f -> f.severity() == Severity.PASS);
        assertThat(found).filteredOn(f -> f.subject().equals(CheckTrees.NODE)).singleElement().satisfies(f -> {
            assertThat(f.severity()).isEqualTo(Severity.FAIL);
            assertThat(f.observed()).isEqualTo("4 GPUs");
            assertThat(f.remediation()).contains("more GPUs than the spec gives this node");
        });
        assertThat(found).filteredOn(f -> f.severity() == Severity.UNKNOWN).extracting(Finding::subject)
                .containsExactly("GPU2 (0000:00:08.0)", "GPU3 (0000:00:09.0)");
    }
}
