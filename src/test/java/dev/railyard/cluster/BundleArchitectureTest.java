package dev.railyard.cluster;

import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A bundle's machine comes from its own runtime (jlink's release file, read from the real tarball the tests ship),
 * and a node whose {@code uname -m} differs is refused before anything is copied, in one sentence naming both ways.
 * No node of another machine is at hand here: the refusal is proven on the probe's parsed answer, not end to end.
 */
class BundleArchitectureTest {

    @Test
    void theTestBundleIsBuiltForThisMachine() {
        assertThat(BundleArchitecture.of(TestBundle.build().tarball()))
                .contains(BundleArchitecture.machine(System.getProperty("os.arch")));
    }

    @Test
    void aNodeOfAnotherMachineIsRefusedNamingBothWays() {
        assertThat(BundleArchitecture.mismatch("spark1", Optional.of("aarch64"), Optional.of("x86_64"))).hasValueSatisfying(s ->
                assertThat(s).startsWith("spark1 is aarch64 but the bundle is built for x86_64: ")
                        .contains("railyard bundle").contains("--bundle").contains("--railyard-path"));
        assertThat(BundleArchitecture.mismatch("n1", Optional.of("x86_64"), Optional.of("x86_64"))).isEmpty();
        assertThat(BundleArchitecture.mismatch("n1", Optional.of("arm64"), Optional.of("aarch64"))).isEmpty();
        assertThat(BundleArchitecture.mismatch("n1", Optional.empty(), Optional.of("x86_64"))).as("not refused on a guess").isEmpty();
    }

    @Test
    void theProbeSaysTheNodesMachine() {
        assertThat(NodeCache.parse("absent /root/.cache/railyard/abc\narch aarch64\n")).hasValueSatisfying(a -> {
            assertThat(a.present()).isFalse();
            assertThat(a.arch()).contains("aarch64");
        });
        assertThat(NodeCache.parse("present /root/.cache/railyard/abc\n")).hasValueSatisfying(a ->
                assertThat(a.arch()).isEmpty());
    }
}
