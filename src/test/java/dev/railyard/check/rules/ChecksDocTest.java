package dev.railyard.check.rules;

import dev.railyard.model.CheckId;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/** docs/checks.md is the catalog as written by {@link ChecksDoc}: every ID, what it reads, thresholds and fix. */
class ChecksDocTest {

    private static final Path DOC = Path.of("docs/checks.md");

    @Test
    void theDocIsTheCatalog() throws IOException {
        String want = ChecksDoc.markdown();
        String have = Files.exists(DOC) ? Files.readString(DOC) : "";
        if (!have.equals(want)) {
            Path fresh = Path.of("target/checks.md");
            Files.createDirectories(fresh.getParent());
            Files.writeString(fresh, want);
            assertThat(have).as("docs/checks.md differs from the catalog; the catalog's text is in " + fresh
                    + ": cp " + fresh + " " + DOC).isEqualTo(want);
        }
    }

    @Test
    void everyIdHasASectionWithItsRule() throws IOException {
        String doc = Files.readString(DOC);
        for (CheckId id : CheckId.values()) {
            Rule r = Rulebook.of(id);
            assertThat(r.id()).isEqualTo(id);
            assertThat(doc).as(id.id()).contains("## " + id.id() + "\n", "- Reads: " + r.reads(),
                    "- Thresholds: " + r.thresholds(), "- Fix: " + r.fix());
            assertThat(Arrays.asList(r.reads(), r.thresholds(), r.severities(), r.fix(), r.judge()))
                    .as(id.id()).allSatisfy(t -> assertThat(t).isNotBlank());
        }
    }
}
