package dev.railyard.bench;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class LiteralsTest {

    private static final Literals KERNEL = Literals.of("mlx5_core ", "NVRM: Xid", "error received", "EDAC ");

    @Test
    void findsEachLiteralWhereStringContainsDoes() {
        List<String> lines = List.of("[ 3.1] mlx5_core 0000:3b:00.0: Port: 1 Link ACTIVE",
                "[ 9.0] NVRM: Xid (PCI:0000:3b:00): 79, pid=1, GPU has fallen off the bus.",
                "pcieport 0000:00:01.0: AER: Corrected error received: 0000:01:00.0",
                "EDAC MC0: 1 CE memory read error", "mlx5_cor", "NVRM: Xi", "an error receive", "",
                "EDAC mlx5_core NVRM: Xid error received", "déjà vu EDAC ünïcode ✓ mlx5_core ");
        for (String line : lines) {
            long expected = 0;
            for (int i = 0; i < KERNEL.size(); i++) if (line.contains(KERNEL.literal(i))) expected |= 1L << i;
            assertThat(KERNEL.in(line)).as(line).isEqualTo(expected);
        }
    }

    @Test
    void packedLinesAreReadFromTheirBytesWithTheSameAnswer() {
        PackedLines.Builder b = new PackedLines.Builder();
        List<String> lines = List.of("EDAC MC0: 1 CE", "", "nothing here", "ünïcode NVRM: Xid 79", "  \t ",
                "tail mlx5_core ");
        for (String l : lines) b.add(l);
        PackedLines packed = b.build();
        assertThat(packed).containsExactlyElementsOf(lines);
        for (int i = 0; i < lines.size(); i++) {
            assertThat(KERNEL.in(packed, i)).as(lines.get(i)).isEqualTo(KERNEL.in(lines.get(i)));
        }
        assertThat(new TextLines(packed).nonBlank()).isEqualTo(4);
        assertThat(KERNEL.named(KERNEL.in(packed, 0) | KERNEL.in(packed, 5))).containsExactly("mlx5_core ", "EDAC ");
    }

    @Test
    void aLiteralDoesNotMatchAcrossTheEndOfThePreviousPackedLine() {
        PackedLines.Builder b = new PackedLines.Builder();
        b.add("xx ED").add("AC yy");
        PackedLines packed = b.build();
        assertThat(KERNEL.in(packed, 1)).isZero();
        assertThat(KERNEL.in(packed, 0)).isZero();
    }

    /** Lines of random pieces of the literals and of log words: the scan must agree with String.contains. */
    @Test
    void agreesWithContainsOnRandomLinesBuiltFromPiecesOfTheLiterals() {
        List<String> words = List.of("EDAC ", "EDA", "DAC ", "C ", "mlx5_", "core ", "mlx5_core", "NVRM: ", "Xid",
                "error ", "received", "rece", " ", ": ", "ü", "✓", "x", "E", "ED");
        java.util.Random random = new java.util.Random(9);
        PackedLines.Builder b = new PackedLines.Builder();
        List<String> lines = new java.util.ArrayList<>();
        for (int n = 0; n < 20_000; n++) {
            StringBuilder line = new StringBuilder();
            for (int w = random.nextInt(12); w > 0; w--) line.append(words.get(random.nextInt(words.size())));
            lines.add(line.toString());
            b.add(line.toString());
        }
        PackedLines packed = b.build();
        for (int n = 0; n < lines.size(); n++) {
            String line = lines.get(n);
            long expected = 0;
            for (int i = 0; i < KERNEL.size(); i++) if (line.contains(KERNEL.literal(i))) expected |= 1L << i;
            assertThat(KERNEL.in(line)).as(line).isEqualTo(expected);
            assertThat(KERNEL.in(packed, n)).as(line).isEqualTo(expected);
        }
    }
}
