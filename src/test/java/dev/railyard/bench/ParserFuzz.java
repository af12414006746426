package dev.railyard.bench;

import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/** Shared by the parser fuzz tests: every real sample under a resource folder, damaged in seeded ways. */
public final class ParserFuzz {

    private ParserFuzz() {
    }

    /**
     * Feeds {@code variantsPerSample} damaged copies of every sample in {@code resourceDir} to {@code parse}: each
     * must parse or throw a ToolParseException naming its line, and the damage must reach a typed error sometimes.
     */
    public static void parsesOrFailsTyped(String resourceDir, int variantsPerSample, Consumer<String> parse) {
        int typed = 0;
        int total = 0;
        for (String sample : RealSamples.all(resourceDir)) {
            String body = RealSamples.body(sample);
            for (String v : Garbler.variants(body, sample.hashCode(), variantsPerSample)) {
                total++;
                try {
                    parse.accept(v);
                } catch (ToolParseException e) {
                    typed++;
                    assertThat(e.lineNumber()).isPositive();
                    assertThat(v.split("\\r?\\n", -1)[e.lineNumber() - 1]).isEqualTo(e.line());
                } catch (RuntimeException e) {
                    fail(sample + ": " + e + " on input:\n" + v, e);
                }
            }
        }
        assertThat(total).isEqualTo(variantsPerSample * RealSamples.all(resourceDir).size());
        // The damage must reach the table sometimes, or the test proves nothing.
        assertThat(typed).isPositive();
    }
}
