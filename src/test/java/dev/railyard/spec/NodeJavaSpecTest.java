package dev.railyard.spec;

import dev.railyard.model.ClusterSpec;
import dev.railyard.model.RailyardException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A node's own JDK 25 ({@code java:} under the node): read, written back, and a bad path named with file:line:key. */
class NodeJavaSpecTest {

    private static final String SPEC = """
            cluster: s2
            nodes:
              - {name: head, address: 10.0.0.1}
              - name: spark1
                address: 10.0.0.11
                java: /usr/lib/jvm/temurin-25-jdk-arm64/
            """;

    @Test
    void theNodesJdkIsReadAndWrittenBack() {
        ClusterSpec spec = new SpecReader().read("cluster.yaml", SPEC);
        assertThat(spec.node("spark1").orElseThrow().java()).contains("/usr/lib/jvm/temurin-25-jdk-arm64");
        assertThat(spec.node("head").orElseThrow().java()).isEmpty();
        String written = new SpecWriter().write(spec);
        assertThat(written).contains("    java: \"/usr/lib/jvm/temurin-25-jdk-arm64\"\n");
        assertThat(new SpecReader().read("again.yaml", written).node("spark1").orElseThrow().java())
                .contains("/usr/lib/jvm/temurin-25-jdk-arm64");
    }

    @Test
    void aRelativeOrShellWordPathIsAUsageErrorNamingTheLine() {
        for (String bad : new String[]{"jdk-25", "'/opt/jdk 25'", "'/opt/$(id)'", "/opt/../etc"}) {
            assertThatThrownBy(() -> new SpecReader().read("cluster.yaml", SPEC.replace(
                    "/usr/lib/jvm/temurin-25-jdk-arm64/", bad)))
                    .isInstanceOf(RailyardException.Usage.class)
                    .hasMessageContaining("cluster.yaml:6: nodes[1].java: java must be the absolute path of a JDK 25's home");
        }
    }
}
