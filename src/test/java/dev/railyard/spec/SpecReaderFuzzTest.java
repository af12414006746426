package dev.railyard.spec;

import dev.railyard.model.RailyardException;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/** Truncated and garbled examples either read or fail with a Usage error naming the file and a line. */
class SpecReaderFuzzTest {

    private static final String GARBAGE = ":{}[]-,\"'\t\n #&*!|>%@`0aZ.";

    @Test
    void garbledExamplesReadOrFailWithALocatedUsageError() throws Exception {
        Random random = new Random(20260115L);
        int usageErrors = 0;
        for (String name : List.of("s1-homelab-v100-roce.yaml", "s2-dgx-spark-roce.yaml", "s3-r730-ib-qdr.yaml",
                "s4-h100-hdr.yaml")) {
            String text = Files.readString(Path.of("examples", name));
            for (int i = 0; i < 150; i++) {
                String mutated = i % 3 == 0
                        ? text.substring(0, random.nextInt(text.length()))
                        : garble(text, random, 1 + random.nextInt(4));
                try {
                    new SpecReader().read("f.yaml", mutated);
                } catch (RailyardException.Usage e) {
                    usageErrors++;
                    assertThat(e.getMessage()).startsWith("f.yaml");
                } catch (RuntimeException e) {
                    fail("not a Usage error for input:\n" + mutated, e);
                }
            }
        }
        assertThat(usageErrors).isGreaterThan(50);
    }

    private static String garble(String text, Random random, int edits) {
        StringBuilder b = new StringBuilder(text);
        for (int e = 0; e < edits; e++) {
            int at = random.nextInt(b.length());
            switch (random.nextInt(3)) {
                case 0 -> b.deleteCharAt(at);
                case 1 -> b.insert(at, GARBAGE.charAt(random.nextInt(GARBAGE.length())));
                default -> b.setCharAt(at, GARBAGE.charAt(random.nextInt(GARBAGE.length())));
            }
        }
        return b.toString();
    }
}
