package dev.railyard.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/benchmarks.md states current figures, one section per benchmark; how they were reached lives in git. So the
 * file stays short, names no past attempts, and every script or source path it tells a reader to run exists.
 */
class BenchmarksDocTest {

    private static final Path DOC = Path.of("docs/benchmarks.md");
    /** The words of a figure's history; each spelled with a character class so this file does not hold them itself. */
    private static final Pattern HISTORY = Pattern.compile(
            "(?i)\\b(sess[i]on|len[t]|leas[e][sd]?|experim[e]nt|tri[e]d|not kep[t]|rever[t]ed|issu[e] \\d+|ru[n] \\d+"
                    + "|run[s] \\d+[-–]|see[d] 0\\d\\d)\\b");
    private static final Pattern REPO_PATH = Pattern.compile("\\b((?:scripts|src|deploy|examples|docs)/[\\w./-]+\\w)");

    @Test
    void isShortAndHoldsNoHistory() throws IOException {
        List<String> lines = Files.readAllLines(DOC);
        assertThat(lines).hasSizeLessThan(400);
        List<String> history = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher m = HISTORY.matcher(lines.get(i));
            if (m.find()) history.add((i + 1) + ": " + m.group());
        }
        assertThat(history).as("words of how the figures were reached").isEmpty();
    }

    @Test
    void everySectionSaysHowItWasMeasuredAndOnWhat() throws IOException {
        String doc = Files.readString(DOC);
        String[] sections = doc.split("\n## ");
        assertThat(sections.length).isGreaterThan(5);
        for (String section : List.of(sections).subList(1, sections.length)) {
            String title = section.lines().findFirst().orElseThrow();
            if (title.equals("Machines")) continue;
            assertThat(title).as("the anchor tool, or that there is none").containsPattern("anchor|no anchor|\\(`");
            assertThat(section).as(title).containsPattern("(?i)method|Not a speed benchmark|machine|H200|VM");
            assertThat(section).as(title + ": a figure").containsPattern("\\d");
        }
    }

    @Test
    void everyPathItNamesExists() throws IOException {
        Matcher m = REPO_PATH.matcher(Files.readString(DOC));
        List<String> missing = new ArrayList<>();
        while (m.find()) {
            String path = m.group(1);
            if (!Files.exists(Path.of(path))) missing.add(path);
        }
        assertThat(missing).isEmpty();
    }

    @Test
    void rawRunFoldersAreGoneOrCited() throws IOException {
        Path runs = Path.of("docs/runs");
        if (!Files.exists(runs)) return;
        StringBuilder docs = new StringBuilder();
        try (Stream<Path> md = Files.list(Path.of("docs"))) {
            for (Path p : md.filter(p -> p.toString().endsWith(".md")).toList()) docs.append(Files.readString(p));
        }
        try (Stream<Path> folders = Files.list(runs)) {
            assertThat(folders.map(p -> "docs/runs/" + p.getFileName()).filter(f -> !docs.toString().contains(f)))
                    .as("run folders no document cites").isEmpty();
        }
    }
}
