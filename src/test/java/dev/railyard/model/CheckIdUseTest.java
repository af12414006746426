package dev.railyard.model;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** The catalog is the only place an ID is spelled: checks, verdicts and diagnose refer to it, never retype it. */
class CheckIdUseTest {

    private static final Path SOURCES = Path.of("src/main/java");
    private static final Pattern LITERAL = Pattern.compile("\"([a-z0-9-]+(?:\\.[a-z0-9-]+)+)\"");
    private static final Pattern COMMENT = Pattern.compile("/\\*[\\s\\S]*?\\*/|(?m)^\\s*//.*$|\\s//\\s.*$");

    @Test
    void noSourceOutsideTheCatalogSpellsACatalogId() throws IOException {
        Set<String> ids = Stream.of(CheckId.values()).map(CheckId::id).collect(Collectors.toSet());
        Path catalog = SOURCES.resolve("dev/railyard/model/CheckId.java");
        List<String> retyped = new ArrayList<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java") && !p.equals(catalog)).toList()) {
                String code = COMMENT.matcher(Files.readString(f)).replaceAll("");
                Matcher m = LITERAL.matcher(code);
                while (m.find()) if (ids.contains(m.group(1))) retyped.add(SOURCES.relativize(f) + ": " + m.group());
            }
        }
        assertThat(retyped).as("use CheckId.X.id() instead").isEmpty();
    }
}
