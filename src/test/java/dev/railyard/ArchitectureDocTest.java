package dev.railyard;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** docs/architecture.md names every package of src/main, names nothing else, and the packages form no cycle. */
class ArchitectureDocTest {

    private static final Path SOURCES = Path.of("src/main/java/dev/railyard");
    private static final Path DOC = Path.of("docs/architecture.md");
    /** A package as the picture names it: "[collect]". */
    private static final Pattern IN_PICTURE = Pattern.compile("\\[([a-z]+)]");
    /** A row of the package table: "| `collect` | ...". */
    private static final Pattern IN_TABLE = Pattern.compile("(?m)^\\| `([a-z]+)` \\|");
    private static final Pattern IMPORT = Pattern.compile("\\bdev\\.railyard\\.([a-z]+)\\.[A-Za-z]");
    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\\\n]|\\\\.)*\"");

    @Test
    void thePictureAndTheTableNameEveryPackageAndOnlyThose() throws IOException {
        Set<String> packages = packages();
        String doc = Files.readString(DOC);
        String picture = doc.substring(doc.indexOf("```"), doc.indexOf("```", doc.indexOf("```") + 3));
        assertThat(names(IN_PICTURE, picture)).as("packages in the picture").isEqualTo(packages);
        assertThat(names(IN_TABLE, doc)).as("packages in the table").isEqualTo(packages);
    }

    @Test
    void noPackageReachesBackToItselfThroughItsImports() throws IOException {
        Map<String, Set<String>> uses = uses();
        List<String> cycles = new ArrayList<>();
        for (String start : uses.keySet()) {
            List<String> path = cycleFrom(start, start, uses, new ArrayList<>(List.of(start)), new HashSet<>());
            if (path != null) cycles.add(String.join(" -> ", path));
        }
        assertThat(cycles).as("package cycles (code names a class of another package only through an import or a"
                + " qualified name)").isEmpty();
    }

    private static List<String> cycleFrom(String start, String at, Map<String, Set<String>> uses, List<String> path,
                                          Set<String> seen) {
        for (String next : uses.getOrDefault(at, Set.of())) {
            if (next.equals(start)) {
                List<String> found = new ArrayList<>(path);
                found.add(start);
                return found;
            }
            if (!seen.add(next)) continue;
            path.add(next);
            List<String> found = cycleFrom(start, next, uses, path, seen);
            if (found != null) return found;
            path.removeLast();
        }
        return null;
    }

    /** Each package to the other packages its code names, string literals left out (a class name for a JVM). */
    private static Map<String, Set<String>> uses() throws IOException {
        Map<String, Set<String>> uses = new TreeMap<>();
        for (String pkg : packages()) {
            Set<String> named = new TreeSet<>();
            try (Stream<Path> files = Files.walk(SOURCES.resolve(pkg))) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                    String code = STRING.matcher(Files.readString(f)).replaceAll("\"\"");
                    Matcher m = IMPORT.matcher(code);
                    while (m.find()) if (!m.group(1).equals(pkg)) named.add(m.group(1));
                }
            }
            uses.put(pkg, named);
        }
        return uses;
    }

    private static Set<String> packages() throws IOException {
        try (Stream<Path> dirs = Files.list(SOURCES)) {
            return dirs.filter(Files::isDirectory).map(p -> p.getFileName().toString()).collect(TreeSet::new, Set::add,
                    Set::addAll);
        }
    }

    private static Set<String> names(Pattern p, String text) {
        Set<String> names = new TreeSet<>();
        Matcher m = p.matcher(text);
        while (m.find()) names.add(m.group(1));
        return names;
    }
}
