package dev.railyard.spec;

import dev.railyard.model.RailyardException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/** A spec with several mistakes is refused once with all of them; a file that is no spec is refused briefly. */
class SpecAllProblemsTest {

    private static final String THREE_WRONG_VALUES = """
            cluster: lab
            nodes:
              - {name: n1, address: 10.0.0.1}
              - {name: n2, address: 10.0.0.2, os_famly: rhel}
            networks:
              - name: rail0
                role: compute
                rate_gbps: fast
                mtu: big
                subnet: 10.1.0.0/24
            expect:
              gpu_temp_warn_c: hot
              net_buffer_bytes: 268435456
            """;

    private static String refusal(String text) {
        try {
            new SpecReader().read("cluster.yaml", text);
        } catch (RailyardException.Usage e) {
            return e.getMessage();
        }
        throw new AssertionError("accepted");
    }

    @Test
    void everyMistakeOfTheFileComesInOneRunWithItsLine() {
        String message = refusal(THREE_WRONG_VALUES);
        assertThat(message).startsWith("cluster.yaml has 4 problems:")
                .contains("\n  cluster.yaml:4: nodes[1].os_famly: unknown key; did you mean \"os_family\"?")
                .contains("\n  cluster.yaml:8: networks[0].rate_gbps: expected a number, got \"fast\"")
                .contains("\n  cluster.yaml:9: networks[0].mtu: expected an integer, got \"big\"")
                .contains("\n  cluster.yaml:12: expect.gpu_temp_warn_c: expected a number, got \"hot\"");
        assertThat(message.indexOf(":4:")).isLessThan(message.indexOf(":8:"));
        assertThat(message.indexOf(":9:")).isLessThan(message.indexOf(":12:"));
    }

    @Test
    void oneMistakeReadsAsBefore() {
        assertThat(refusal(THREE_WRONG_VALUES.replace("fast", "100").replace("hot", "85").replace("os_famly", "os_family")))
                .isEqualTo("cluster.yaml:9: networks[0].mtu: expected an integer, got \"big\"");
    }

    @Test
    void aBindingToANodeWithAMistakeIsNotASecondProblem() {
        String message = refusal("""
                cluster: lab
                nodes:
                  - {name: n1, address: 10.0.0.999}
                networks:
                  - name: rail0
                    role: compute
                    bind:
                      n1: {netdev: ens6}
                """);
        assertThat(message).startsWith("cluster.yaml:3: nodes[0].address:").doesNotContain("no node named");
    }

    @Test
    void aLongFileThatIsNoSpecIsNotEchoedBack() {
        String oneLine = "x".repeat(500_000);
        String message = refusal(oneLine);
        assertThat(message.length()).isLessThan(400);
        assertThat(message).contains("(500000 characters)");
    }

    @Test
    void aFileOfManyMegabytesIsRefusedBeforeItIsRead(@TempDir Path dir) throws IOException {
        Path big = dir.resolve("big.yaml");
        Files.writeString(big, "y".repeat(20_000_000));
        RailyardException.Usage e = assertTimeoutPreemptively(Duration.ofSeconds(20), () ->
                org.junit.jupiter.api.Assertions.assertThrows(RailyardException.Usage.class, () -> new SpecReader().read(big)));
        assertThat(e.getMessage()).isEqualTo(big + " is 20.0 MB; a spec is a few KB of YAML (at most 1 MiB): is it the right file?");
    }

    @Test
    void aFileWithHundredsOfMistakesShowsTheFirstTwenty() {
        StringBuilder text = new StringBuilder("cluster: lab\nnodes:\n");
        for (int i = 0; i < 50; i++) text.append("  - {name: n").append(i).append(", address: 10.0.0.").append(i).append(", x: 1}\n");
        String message = refusal(text.toString());
        assertThat(message).startsWith("cluster.yaml has 50 problems:").endsWith("... and 30 more");
        assertThatThrownBy(() -> new SpecReader().read("c.yaml", text.toString())).isInstanceOf(RailyardException.Usage.class);
    }
}
