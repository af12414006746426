package dev.railyard.diagnose;

import dev.railyard.model.RailyardException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PasteTest {

    @Test
    void markdownEntitiesAndBordersGoLineNumbersStay() {
        Paste p = Paste.of("```\n> **[  4] 0.00-10.00 sec 1.24 GBytes 1.06 Gbits/sec 0.001 ms 135795/162217 (84&#37;)**\n"
                + "│ iperf Done. │\n```\n");
        assertThat(p.text().lines()).containsExactly("",
                "[  4] 0.00-10.00 sec 1.24 GBytes 1.06 Gbits/sec 0.001 ms 135795/162217 (84%)", "iperf Done.", "");
        assertThat(p.removed()).containsExactly("markdown code fences", "HTML entities", "markdown quote marks",
                "markdown bold", "terminal borders");
    }

    @Test
    void aPrefixIsStrippedOnlyWhenMostLinesCarryIt() {
        Paste pdsh = Paste.of("node1: CA 'mlx5_0'\nnode1: \tCA type: MT4123\nnode1: \tPort 1:\n");
        assertThat(pdsh.text().lines()).containsExactly("CA 'mlx5_0'", "\tCA type: MT4123", "\tPort 1:");
        Paste one = Paste.of("Note: a line of prose\nsockperf: == version #3.8 ==\nsockperf: Test ended\n");
        assertThat(one.text().lines().getFirst()).isEqualTo("Note: a line of prose");
        assertThat(one.text().lines().get(1)).startsWith("sockperf: ");
    }

    @Test
    void kernelStampsStayButOtherProgramsSyslogStampsGo() {
        Paste kernel = Paste.of("May  7 06:45:12 errol kernel: [21584690.5] EDAC MC0: 4 CE error\n"
                + "May  7 06:45:13 errol kernel: [21584691.7] EDAC MC0: 2 CE error\n");
        assertThat(kernel.removed()).isEmpty();
        Paste app = Paste.of("Jan  1 00:00:01 gpu1 nccl-run[42]: # nThread 1 nGpus 8\n"
                + "Jan  1 00:00:01 gpu1 nccl-run[42]: #  Rank  0 Group  0 Pid 42 on gpu1 device  0 [0x16] H100\n");
        assertThat(app.text().lines().getFirst()).isEqualTo("# nThread 1 nGpus 8");
    }

    @Test
    void binaryIsRefused() {
        assertThatThrownBy(() -> Paste.of("abc\u0000def")).isInstanceOf(RailyardException.Usage.class)
                .hasMessageContaining("not text output");
        assertThatThrownBy(() -> Paste.of("\u0001\u0002\u0003\u0004\u0005\u0006 text"))
                .hasMessageContaining("not printable text");
    }

    @Test
    void aLineLongerThanAnyToolWritesIsCut() {
        Paste p = Paste.of("x".repeat(Paste.MAX_LINE + 10) + "\nnext\n");
        assertThat(p.text().line(1)).hasSize(Paste.MAX_LINE);
        assertThat(p.text().line(2)).isEqualTo("next");
        assertThat(p.removed()).anySatisfy(r -> assertThat(r).contains("beyond"));
    }

    @Test
    void readingStopsAtTheCapAndSaysSo() throws Exception {
        byte[] text = "line one\nline two\nline three\n".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        Paste whole = Paste.read(new java.io.ByteArrayInputStream(text), "stdin", text.length);
        assertThat(whole.cut()).isFalse();
        assertThat(whole.text().lines()).containsExactly("line one", "line two", "line three");
        Paste cut = Paste.read(new java.io.ByteArrayInputStream(text), "stdin", 13);
        assertThat(cut.cut()).isTrue();
        assertThat(cut.text().lines()).containsExactly("line one", "line");
    }

    @Test
    void aNulByteInTheFirst64KibIsRefusedEvenInsideALineThatIsCut() {
        String longLine = "x".repeat(Paste.MAX_LINE + 100) + "\u0000 and more\n";
        assertThatThrownBy(() -> Paste.of(longLine)).isInstanceOf(RailyardException.Usage.class)
                .hasMessageContaining("not text output: it contains NUL bytes");
    }

    @Test
    void byteOrderMarkCrlfAndCharactersBeyondLatin1AreReadAsText() {
        Paste p = Paste.of("\uFEFFfirst\r\nsecond ✓ ünï\r\n\r\nlast");
        assertThat(p.text().lines()).containsExactly("first", "second ✓ ünï", "", "last");
        assertThat(p.blank()).isFalse();
        assertThat(Paste.of(" \n\t\n").blank()).isTrue();
    }

    @Test
    void aCutLineDoesNotEndInHalfACharacter() {
        Paste p = Paste.of("x".repeat(Paste.MAX_LINE - 1) + "✓✓✓\n");
        assertThat(p.text().line(1)).isEqualTo("x".repeat(Paste.MAX_LINE - 1));
    }
}
