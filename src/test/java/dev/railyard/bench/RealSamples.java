package dev.railyard.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** Real tool outputs copied from realdata into test resources; each keeps its two attribution lines. */
public final class RealSamples {

    private RealSamples() {}

    /** The sample's text without its "# SOURCE:" and "# HARDWARE:" lines, as the tool printed it. */
    public static String body(String resource) {
        String all = read(path(resource));
        if (!all.startsWith("# SOURCE:")) throw new IllegalStateException(resource + " lacks its # SOURCE: line");
        int first = all.indexOf('\n');
        int second = all.indexOf('\n', first + 1);
        return all.substring(second + 1);
    }

    /** Every sample in a resource folder, sorted, as resource names. */
    public static List<String> all(String folder) {
        try (Stream<Path> s = Files.list(path(folder))) {
            return s.map(p -> folder + "/" + p.getFileName()).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path path(String resource) {
        try {
            return Path.of(RealSamples.class.getClassLoader().getResource(resource).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String read(Path p) {
        try {
            return Files.readString(p, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
