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
 * Code, scripts, docs, example specs and deploy files say why in their own terms: no pointer into documents or
 * experiments a reader of this repository does not have ("seed 004", "run 31", PRODUCT.md, an issue number of this
 * project), and README's map names every package there is.
 */
class RepositoryWordsTest {

    private static final Pattern ELSEWHERE = Pattern.compile(
            "\\bseeds? 0\\d\\d\\b|\\bPRODUCT\\.md\\b|\\b[Rr]uns? \\d+\\b(?! (?:s|ms|mutants|times|rounds|pair))|\\b[Ii]ssue \\d+'s\\b"
                    // the longer forms: "Seed 004's", "the seed's", "seed: 98 %"
                    + "|(?i:\\bseeds?(?:'s?)? (?:0\\d\\d|S\\d)\\b|\\bthe seeds?'s?\\b|\\bseed:)");

    private static List<Path> files() throws IOException {
        List<Path> out = new ArrayList<>();
        try (Stream<Path> s = Files.walk(Path.of("src/main/java"))) {
            s.filter(p -> p.toString().endsWith(".java")).forEach(out::add);
        }
        try (Stream<Path> s = Files.list(Path.of("scripts"))) {
            s.filter(Files::isRegularFile).forEach(out::add);
        }
        try (Stream<Path> s = Files.list(Path.of("docs"))) {
            // the diagnose corpus names the public issue threads its pastes come from
            s.filter(p -> p.toString().endsWith(".md") && !p.endsWith("diagnose-corpus.md")).forEach(out::add);
        }
        // what ships beside the code: example specs, dashboards and alert rules, the build and CI entry points
        for (String dir : List.of("examples", "deploy", ".ci", "src/build")) {
            try (Stream<Path> s = Files.walk(Path.of(dir))) {
                s.filter(Files::isRegularFile).forEach(out::add);
            }
        }
        out.add(Path.of("README.md"));
        out.add(Path.of("railyard"));
        out.add(Path.of("run-tests"));
        out.add(Path.of("pom.xml"));
        return out;
    }

    @Test
    void nothingPointsAtDocumentsOrExperimentsTheReaderDoesNotHave() throws IOException {
        List<String> hits = new ArrayList<>();
        for (Path f : files()) {
            List<String> lines = Files.readAllLines(f);
            for (int i = 0; i < lines.size(); i++) {
                Matcher m = ELSEWHERE.matcher(lines.get(i));
                if (m.find()) hits.add(f + ":" + (i + 1) + ": " + m.group());
            }
        }
        assertThat(hits).isEmpty();
    }

    /** The same in test code, with the longer forms its comments used ("the seed's", "Seed S1", "Issue 13: ..."). */
    private static final Pattern ELSEWHERE_IN_TESTS = Pattern.compile("(?i)\\bseeds?(?:'s?)? (?:0\\d\\d|S\\d)\\b"
            + "|\\bthe seeds?'s?\\b|\\bseed systems?\\b|\\bPRODUCT\\.md\\b|\\bissue \\d+'s\\b|^\\s*(?:/\\*\\*|\\*|//)\\s*issue \\d+\\b");

    /**
     * The tests that guard against these words name them, and CheckIdTest compares the catalog with the product
     * document it reads from the docs beside the checkout.
     */
    private static final List<String> NAME_THE_WORDS = List.of("Jargon.java", "RepositoryWordsTest.java",
            "HelpPagesTest.java", "DiagnoseCorpusJargonTest.java", "TruthfulFindingsTest.java", "RenderJargonTest.java",
            "CheckIdTest.java");

    @Test
    void testCodeSaysWhatItsDataIs() throws IOException {
        List<String> hits = new ArrayList<>();
        try (Stream<Path> s = Files.walk(Path.of("src/test/java"))) {
            for (Path f : s.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> !NAME_THE_WORDS.contains(p.getFileName().toString())).toList()) {
                List<String> lines = Files.readAllLines(f);
                for (int i = 0; i < lines.size(); i++) {
                    Matcher m = ELSEWHERE_IN_TESTS.matcher(lines.get(i));
                    if (m.find()) hits.add(f + ":" + (i + 1) + ": " + m.group());
                }
            }
        }
        assertThat(hits).isEmpty();
    }

    @Test
    void theReadmesMapNamesEveryPackage() throws IOException {
        String readme = Files.readString(Path.of("README.md"));
        String map = readme.substring(readme.indexOf("## Where things are"));
        List<String> missing = new ArrayList<>();
        try (Stream<Path> s = Files.list(Path.of("src/main/java/dev/railyard"))) {
            s.filter(Files::isDirectory).map(p -> p.getFileName().toString())
                    .filter(name -> !map.contains("- `" + name + "`:")).forEach(missing::add);
        }
        assertThat(missing).isEmpty();
        assertThat(map).doesNotContain("pure checks");
    }
}
