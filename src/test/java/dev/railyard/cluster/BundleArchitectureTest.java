package dev.railyard.cluster;

import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A bundle's machine comes from its own runtime (the ELF header of runtime/bin/java in the real tarball the tests
 * ship), and the probe says the node's. Which bundle a node then gets: {@link BundleChoiceTest}.
 */
class BundleArchitectureTest {

    @Test
    void theTestBundleIsBuiltForThisMachine() {
        assertThat(BundleArchitecture.of(TestBundle.build().tarball()))
                .contains(BundleArchitecture.machine(System.getProperty("os.arch")));
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
