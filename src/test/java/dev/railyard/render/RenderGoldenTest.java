package dev.railyard.render;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every file rendered for one node of each example system against golden files in
 * src/test/resources/golden/render/EXAMPLE/NODE/. The goldens are the reviewed output, comments included: after a
 * deliberate change regenerate with -Dgolden.update=true and read the diff before committing.
 */
class RenderGoldenTest {

    private static final Path GOLDEN = Path.of("src/test/resources/golden/render");

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
            "s1-homelab-v100-roce, gpuserver1",
            "s2-dgx-spark-roce, spark-01",
            "s3-r730-ib-qdr, r720",
            "s3-r730-ib-qdr, r730-1",
            "s4-h100-hdr, compute01"})
    void matchesGolden(String example, String node) throws IOException {
        List<RenderedFile> files = Examples.render(example, node);
        Path dir = GOLDEN.resolve(example).resolve(node);
        if (Boolean.getBoolean("golden.update")) {
            if (Files.isDirectory(dir)) {
                try (Stream<Path> old = Files.walk(dir)) {
                    for (Path p : old.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(p);
                }
            }
            for (RenderedFile f : files) {
                Path p = dir.resolve(f.path());
                Files.createDirectories(p.getParent());
                Files.writeString(p, f.content(), StandardCharsets.UTF_8);
            }
        }
        assertThat(dir).as("golden %s (regenerate with -Dgolden.update=true)", dir).isDirectory();
        List<String> goldenPaths;
        try (Stream<Path> all = Files.walk(dir)) {
            goldenPaths = all.filter(Files::isRegularFile).map(p -> dir.relativize(p).toString()).sorted().toList();
        }
        assertThat(files.stream().map(RenderedFile::path).toList()).isEqualTo(goldenPaths);
        for (RenderedFile f : files) {
            assertThat(f.content()).as(f.path()).isEqualTo(Files.readString(dir.resolve(f.path()), StandardCharsets.UTF_8));
        }
    }
}
