package dev.railyard.diagnose;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A kernel log longer than the head is streamed line by line instead of held: its report must be the one the
 * in-memory path gives for the same text (the same reader and verdicts), with repeats counted, not listed.
 */
class LargeInputTest {

    /** Real lines (the corpus's r8125 watchdog paste and gpud's Xid 79) repeated past the 1 MB head. */
    private static String log(int copies) {
        String block = """
                [ 1356.296930] r8125 0000:22:04.0 eth4: NETDEV WATCHDOG: CPU: 3: transmit queue 0 timed out 5010 ms
                [ 1356.350008] r8125 0000:22:04.0 eth4: rtl_rxtx_empty_cond == 0 (loop: 42, delay: 100).
                [ 1843.308145] NVRM: Xid (PCI:0000:b3:00): 79, pid=1818, name=python3, GPU has fallen off the bus.
                [ 1850.000000] usb 1-1: new high-speed USB device number 2 using xhci_hcd
                """;
        return block.repeat(copies);
    }

    @Test
    void aStreamedLogReadsAsTheSameLogInMemory() throws IOException {
        String text = log(8_000); // about 2.4 MB: beyond the head, so it is streamed
        assertThat(text.length()).isGreaterThan(LargeInput.HEAD);
        LargeInput.Result streamed = LargeInput.diagnose(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)),
                "kern.log", 64 << 20, Diagnoser.standard(), DiagnoseTargets.defaults());
        DiagnosisReport inMemory = Diagnoser.standard().diagnose(text);
        assertThat(streamed.report().tool()).isEqualTo(ToolKind.KERNEL_LOG);
        assertThat(streamed.report().worst()).isEqualTo(inMemory.worst());
        assertThat(summary(streamed.report())).isEqualTo(summary(inMemory));
        assertThat(streamed.report().diagnoses()).anySatisfy(d -> assertThat(d.cause())
                .contains("Xid 79").contains("(8000 times)"));
        assertThat(streamed.report().diagnoses()).anySatisfy(d -> assertThat(d.cause())
                .contains("8000 lines, first [ 1356.296930], last [ 1356.296930]"));
        assertThat(streamed.cut()).isFalse();
    }

    @Test
    void anInputShorterThanTheHeadIsReadAsAPaste() throws IOException {
        String text = log(3);
        LargeInput.Result r = LargeInput.diagnose(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)),
                "kern.log", 64 << 20, Diagnoser.standard(), DiagnoseTargets.defaults());
        assertThat(summary(r.report())).isEqualTo(summary(Diagnoser.standard().diagnose(text)));
    }

    /**
     * nccl-tests rows (a real row of the corpus, repeated) past both ends, with NCCL's libibverbs WARN in the middle:
     * the ends are read as a paste, the middle by the catalog's rules, at the line it stands on.
     */
    @Test
    void aLongInputOfAnotherToolKeepsItsEndsAndReadsItsMiddleForErrors() throws IOException {
        String row = "     8388608       2097152     float     sum      -1    91.10   92.08  161.14      0    94.94   88.36  154.63      0\n";
        String warn = "ai-2080ti-18:5571:5571 [0] misc/ibvwrap.cu:63 NCCL WARN Failed to open libibverbs.so[.1]\n";
        String last = "   134217728      33554432     float     sum      -1   1384.2   96.96  169.69      0   1383.9   96.99  169.73      0\n";
        String text = "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
                + row.repeat(20_000) + warn + row.repeat(20_000) + last;
        assertThat(text.length()).isGreaterThan(LargeInput.HEAD + LargeInput.TAIL + 100_000);
        LargeInput.Result r = LargeInput.diagnose(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)),
                "nccl.txt", 64 << 20, Diagnoser.standard(), DiagnoseTargets.defaults());
        assertThat(r.report().tool()).isEqualTo(ToolKind.NCCL_TESTS);
        assertThat(r.report().diagnoses()).anySatisfy(d -> {
            assertThat(d.finding().id()).isEqualTo("nccl.no-libibverbs");
            assertThat(d.lineNumber()).isEqualTo(20_002);
        });
        assertThat(r.report().parsed().numbers()).anySatisfy(m -> assertThat(m.value()).isEqualTo(169.69));
        assertThat(r.report().ignored()).anySatisfy(i -> assertThat(i).endsWith("read for errors only"));
        assertThat(r.cut()).isFalse();
    }

    private static List<String> summary(DiagnosisReport r) {
        return r.diagnoses().stream().map(d -> d.severity() + " " + d.finding().id() + " " + d.subject() + " "
                + d.cause() + " @" + d.lineNumber()).toList();
    }
}
