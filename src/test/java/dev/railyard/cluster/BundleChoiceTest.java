package dev.railyard.cluster;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which bundle a node of a mixed cluster gets (S2: x86_64 head node, aarch64 DGX Sparks), decided on the node's
 * {@code uname -m} before anything is copied. The end-to-end case over real sshd, with a bundle whose runtime is
 * truly of another machine, is in {@link MixedMachinesOverSshTest}.
 */
class BundleChoiceTest {

    private static final Bundle X86 = new Bundle(Path.of("/b/railyard-x86.tar.gz"), "00000000000000000001");
    private static final Bundle ARM = new Bundle(Path.of("/b/railyard-arm.tar.gz"), "00000000000000000002");
    private static final BundleChoice.Built X86_BUILT = new BundleChoice.Built(X86, Optional.of("x86_64"));
    private static final BundleChoice.Built ARM_BUILT = new BundleChoice.Built(ARM, Optional.of("aarch64"));

    @Test
    void eachNodeGetsTheBundleOfItsMachine() {
        List<BundleChoice.Built> both = List.of(X86_BUILT, ARM_BUILT);
        assertThat(BundleChoice.of("head", Optional.of("x86_64"), both, Optional.empty()))
                .isEqualTo(new BundleChoice.Ship(X86, Optional.empty()));
        assertThat(BundleChoice.of("spark1", Optional.of("aarch64"), both, Optional.empty()))
                .isEqualTo(new BundleChoice.Ship(ARM, Optional.empty()));
        assertThat(BundleChoice.of("spark1", Optional.of("arm64"), both, Optional.of("/usr/lib/jvm/jdk-25")))
                .as("a bundle of its own machine wins over the named JDK")
                .isEqualTo(new BundleChoice.Ship(ARM, Optional.empty()));
    }

    @Test
    void withoutAMatchingBundleTheNodesNamedJdkRunsTheJars() {
        assertThat(BundleChoice.of("spark1", Optional.of("aarch64"), List.of(X86_BUILT),
                Optional.of("/usr/lib/jvm/temurin-25-jdk-arm64")))
                .isEqualTo(new BundleChoice.Ship(X86, Optional.of("/usr/lib/jvm/temurin-25-jdk-arm64")));
        assertThat(BundleChoice.program("/c/railyard/abc/bin/railyard", Optional.of("/opt/jdk")))
                .containsExactly("env", "RAILYARD_JAVA=/opt/jdk/bin/java", "/c/railyard/abc/bin/railyard");
        assertThat(BundleChoice.program("/c/railyard/abc/bin/railyard", Optional.empty()))
                .containsExactly("/c/railyard/abc/bin/railyard");
    }

    @Test
    void withNeitherTheNodeIsRefusedInOneSentenceNamingBothWays() {
        BundleChoice c = BundleChoice.of("spark1", Optional.of("aarch64"), List.of(X86_BUILT), Optional.empty());
        assertThat(c).isInstanceOfSatisfying(BundleChoice.Refuse.class, r -> assertThat(r.reason())
                .isEqualTo("spark1 is aarch64 but the bundle is built for x86_64: build one on a aarch64 machine with"
                        + " 'railyard bundle --out railyard-aarch64.tar.gz' and add it with --bundle, or name the"
                        + " node's JDK 25 in the spec (java: /usr/lib/jvm/... under the node)"));
        BundleChoice riscv = BundleChoice.of("rv1", Optional.of("riscv64"), List.of(X86_BUILT, ARM_BUILT), Optional.empty());
        assertThat(((BundleChoice.Refuse) riscv).reason()).startsWith("rv1 is riscv64 but the bundles are built for x86_64 and aarch64: ");
    }

    @Test
    void nothingIsRefusedOnAGuess() {
        assertThat(BundleChoice.of("n1", Optional.empty(), List.of(ARM_BUILT), Optional.empty()))
                .as("node that did not say its machine").isEqualTo(new BundleChoice.Ship(ARM, Optional.empty()));
        BundleChoice.Built unread = new BundleChoice.Built(X86, Optional.empty());
        assertThat(BundleChoice.of("n1", Optional.of("aarch64"), List.of(unread), Optional.empty()))
                .as("bundle whose runtime could not be read").isEqualTo(new BundleChoice.Ship(X86, Optional.empty()));
    }
}
