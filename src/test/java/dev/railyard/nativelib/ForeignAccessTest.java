package dev.railyard.nativelib;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** nativelib is the only package that touches native memory; the benchmarks hold opaque handles. */
class ForeignAccessTest {

    @Test
    void onlyNativelibImportsJavaLangForeign() throws IOException {
        Path sources = Path.of("src/main/java");
        Path nativelib = sources.resolve("dev/railyard/nativelib");
        List<String> offenders;
        try (Stream<Path> files = Files.walk(sources)) {
            offenders = files.filter(p -> p.toString().endsWith(".java") && !p.startsWith(nativelib))
                    .filter(p -> {
                        try {
                            return Files.readString(p).contains("java.lang.foreign");
                        } catch (IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    })
                    .map(p -> sources.relativize(p).toString()).toList();
        }
        assertThat(offenders).isEmpty();
    }
}
